/**
 * Errors are a catalogue: each has a stable upper-case `code`, an HTTP `status` and a
 * message. The host's single error boundary turns a {@link MusterError} into the
 * envelope `{ ok: false, error: { code, message, details? } }`; any other thrown value
 * becomes a generic 500 whose cause is only logged.
 */
export interface ErrorDetail {
  /** Dotted path of the offending field (`title`, `storyIds.2`), or `body`/`query`. */
  path: string;
  /** Why it was refused, in plain words. */
  reason: string;
  /** Where the field is: `body`, `query` or `params`. */
  in?: "body" | "query" | "params" | "header";
}

export interface MusterErrorOptions {
  details?: ErrorDetail[] | Record<string, unknown>;
  cause?: unknown;
  /** Extra response headers, such as `Retry-After` or `Allow`. */
  headers?: Record<string, string>;
  /**
   * Replaces the descriptor's status; only for passing on the 4xx status a library chose
   * (BAD_REQUEST from Koa), never to give one code two meanings.
   */
  status?: number;
}

/**
 * An error a client can act on, or a dependency failure with a stable code. Made by a
 * catalogue's factory ({@link defineErrors}), never constructed ad hoc.
 */
export class MusterError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: MusterErrorOptions["details"];
  readonly headers?: Record<string, string>;

  constructor(code: string, status: number, message: string, options: MusterErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "MusterError";
    this.code = code;
    this.status = status;
    this.details = options.details;
    this.headers = options.headers;
  }

  /** Walks the `cause` chain (viem style) and returns the deepest cause, or the first matching one. */
  walk(predicate?: (error: unknown) => boolean): unknown {
    let current: unknown = this;
    while (current instanceof Error && current.cause !== undefined) {
      if (predicate?.(current)) return current;
      current = current.cause;
    }
    return predicate ? (predicate(current) ? current : undefined) : current;
  }
}

/** A {@link MusterError} as plain data, to carry it across a process boundary. */
export interface TransportedError {
  code: string;
  status: number;
  message: string;
  details?: MusterErrorOptions["details"];
  headers?: Record<string, string>;
}

/**
 * A coded error another Muster process made from its catalogue, made again here as it was
 * (code, status, message, details, headers): in team mode the instance holding a gateway link
 * answers the others' calls with its errors (core/internal/gateway/forwarded-calls.ts). Not a
 * way to make new errors: those come from a catalogue.
 */
export function reviveError(error: TransportedError): MusterError {
  return new MusterError(error.code, error.status, error.message, { ...(error.details ? { details: error.details } : {}), ...(error.headers ? { headers: error.headers } : {}) });
}

/** A value a message template accepts for a placeholder (written with `String(value)`). */
export type TemplateValue = string | number | bigint | boolean | null | undefined;

/** The placeholder names of a message template: `"No task {id} in {path}"` → `"id" | "path"`. */
export type TemplatePlaceholders<T extends string> = T extends `${string}{${infer Name}}${infer Rest}`
  ? Name | TemplatePlaceholders<Rest>
  : never;

/** The parameter object a template needs: one entry per placeholder, none for a plain message. */
export type TemplateParams<T extends string> = { [K in TemplatePlaceholders<T>]: TemplateValue };

/**
 * One error of a catalogue. `message` is a template whose `{name}` placeholders become the
 * typed parameters of the error's factory. `status` is the HTTP status; errors that never
 * reach HTTP (start-up, command line) use 500 by convention (docs/errors.md).
 */
export interface ErrorDescriptor<T extends string = string> {
  status: number;
  message: T;
}

/** The factory `defineErrors` makes for one descriptor; it also carries the descriptor. */
export type ErrorFactory<T extends string = string> = ([TemplatePlaceholders<T>] extends [never]
  ? (params?: Record<string, never>, options?: MusterErrorOptions) => MusterError
  : (params: TemplateParams<T>, options?: MusterErrorOptions) => MusterError) & {
  readonly code: string;
  readonly status: number;
  readonly message: T;
};

/** What `defineErrors` returns: one factory per code. */
export type ErrorCatalogue<T extends Record<string, ErrorDescriptor> = Record<string, ErrorDescriptor>> = {
  readonly [K in keyof T]: ErrorFactory<T[K]["message"]>;
};

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** Fills a template's `{name}` placeholders from `params` (one not given is left as written). */
export function formatMessage(template: string, params: Record<string, unknown> = {}): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** Marks the objects `defineErrors` returns, so tools can find every catalogue a module exports. */
export const ERROR_CATALOGUE: unique symbol = Symbol.for("muster.errorCatalogue");
/** Where a catalogue's {@link CatalogueDeclaration} is kept (`Symbol.for`, so every copy of the kit reads it). */
const DECLARATION: unique symbol = Symbol.for("muster.errorCatalogue.declaration");

/** Who declared a catalogue: a plugin (its codes carry its prefix) or the host (shared codes). */
export interface CatalogueDeclaration {
  /** The plugin id the catalogue was declared with; undefined for the host's catalogues. */
  pluginId?: string;
  /** The codes exempt from the plugin's prefix, each with its reason ({@link PluginErrorOptions.exempt}). */
  exempt: Readonly<Record<string, string>>;
}

/** Options of a plugin's catalogue (`defineErrors(pluginId, catalogue, options)`). */
export interface PluginErrorOptions<Code extends string = string> {
  /**
   * Codes that keep a name without the plugin's prefix, each with the reason: a code a
   * specification names, or one published (docs, an SDK) before the plugin adopted the
   * prefix, which clients already match, so renaming it would break them. Every other code
   * must carry the prefix; an exemption for a code that carries it, or that the catalogue
   * does not declare, is refused too, so the list cannot go stale.
   */
  exempt?: { readonly [K in Code]?: string };
}

/** The reason to give for a code published before its plugin's codes carried the prefix. */
export const PUBLISHED_BEFORE_PREFIX_RULE = "published before the prefix rule; clients match it";

// The plugin id rule of the host's start-up check (kebab-case), repeated so the kit can check
// a catalogue's id at definition without importing the host.
const PLUGIN_ID = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** A plugin's error code prefix: its id upper-snake-cased, then `_` (`gateway-approvals` → `GATEWAY_APPROVALS_`). */
export function errorCodePrefix(pluginId: string): string {
  return `${pluginId.replaceAll("-", "_").toUpperCase()}_`;
}

/**
 * Declares a plugin's error catalogue and returns one factory per code; each factory's
 * parameters are typed from its message template. Every code must start with the plugin's
 * prefix ({@link errorCodePrefix}: `release-notes` → `RELEASE_NOTES_`) unless `options.exempt`
 * names it with a reason; otherwise the call throws `PLUGIN_ERROR_CODE_PREFIX` when the module
 * loads, so a plugin with a stray code never starts.
 *
 * @example
 * const errors = defineErrors("release-notes", {
 *   RELEASE_NOTES_NOT_FOUND: { status: 404, message: "No release note with id {id}" },
 * });
 * throw errors.RELEASE_NOTES_NOT_FOUND({ id });
 */
export function defineErrors<const T extends Record<string, ErrorDescriptor>>(
  pluginId: string,
  catalogue: T,
  options?: PluginErrorOptions<keyof T & string>,
): ErrorCatalogue<T>;
/**
 * Declares one of the host's catalogues: codes shared by every plugin (`VALIDATION_FAILED`,
 * `GATEWAY_UNAVAILABLE`), which carry no plugin's prefix. A plugin declares its catalogue
 * with its id instead (the overload above), so its codes are checked.
 */
export function defineErrors<const T extends Record<string, ErrorDescriptor>>(catalogue: T): ErrorCatalogue<T>;
export function defineErrors(
  first: string | Record<string, ErrorDescriptor>,
  second?: Record<string, ErrorDescriptor>,
  pluginOptions: PluginErrorOptions = {},
): ErrorCatalogue {
  const pluginId = typeof first === "string" ? first : undefined;
  const catalogue = typeof first === "string" ? (second ?? {}) : first;
  const exempt: Record<string, string> = { ...(pluginOptions.exempt as Record<string, string> | undefined) };
  if (pluginId !== undefined) checkPrefixes(pluginId, Object.keys(catalogue), exempt);
  const factories: Record<string, unknown> = {};
  for (const [code, descriptor] of Object.entries(catalogue)) {
    const { status, message } = descriptor;
    const factory = (params: Record<string, unknown> = {}, options: MusterErrorOptions = {}) =>
      new MusterError(code, options.status ?? status, formatMessage(message, params), options);
    factories[code] = Object.assign(factory, { code, status, message });
  }
  Object.defineProperty(factories, ERROR_CATALOGUE, { value: true });
  const declaration: CatalogueDeclaration = { pluginId, exempt: Object.freeze(exempt) };
  Object.defineProperty(factories, DECLARATION, { value: Object.freeze(declaration) });
  return factories as ErrorCatalogue;
}

/** Refuses a code without the plugin's prefix that is not exempt, and an exemption that does not hold. */
function checkPrefixes(pluginId: string, codes: string[], exempt: Record<string, string>): void {
  if (!PLUGIN_ID.test(pluginId)) {
    throw catalogueErrors.PLUGIN_ERROR_CATALOGUE_INVALID({ plugin: pluginId, reason: "the plugin id is not kebab-case" });
  }
  const prefix = errorCodePrefix(pluginId);
  for (const [code, reason] of Object.entries(exempt)) {
    const refuse = (why: string) => catalogueErrors.PLUGIN_ERROR_CATALOGUE_INVALID({ plugin: pluginId, reason: `the exemption of ${code} ${why}` });
    if (!codes.includes(code)) throw refuse("names a code the catalogue does not declare");
    if (code.startsWith(prefix)) throw refuse(`is not needed: the code carries the prefix ${prefix}`);
    if (typeof reason !== "string" || reason.trim() === "") throw refuse("gives no reason");
  }
  for (const code of codes) {
    if (!code.startsWith(prefix) && !Object.hasOwn(exempt, code)) {
      throw catalogueErrors.PLUGIN_ERROR_CODE_PREFIX({ plugin: pluginId, code, prefix });
    }
  }
}

/** Whether `value` is a catalogue made by {@link defineErrors}. */
export function isErrorCatalogue(value: unknown): value is ErrorCatalogue {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[ERROR_CATALOGUE] === true;
}

/** Who declared `catalogue` (its plugin id, if any) and which of its codes are exempt from the prefix. */
export function catalogueDeclaration(catalogue: ErrorCatalogue): CatalogueDeclaration {
  return (catalogue as unknown as Record<symbol, CatalogueDeclaration | undefined>)[DECLARATION] ?? { exempt: {} };
}

/**
 * Mistakes in a plugin's catalogue, thrown by {@link defineErrors} when the plugin's module
 * loads (never sent over HTTP, so status 500 by convention; the command line prints them as
 * start-up errors).
 */
export const catalogueErrors = defineErrors({
  PLUGIN_ERROR_CODE_PREFIX: {
    status: 500,
    message: "Plugin \"{plugin}\" declares the error code {code}, which does not carry its prefix {prefix}; rename it, or exempt it with the reason (a published code clients match)",
  },
  PLUGIN_ERROR_CATALOGUE_INVALID: { status: 500, message: "The error catalogue of plugin \"{plugin}\" is invalid: {reason}" },
});

/** Errors the host itself raises; plugins may raise them too. */
export const hostErrors = defineErrors({
  VALIDATION_FAILED: { status: 400, message: "Invalid {subject}: {summary}" },
  INVALID_JSON: { status: 400, message: "The request body is not valid JSON: {reason}" },
  INVALID_ID: { status: 400, message: "The {name} is not a valid identifier" },
  UNAUTHORIZED: { status: 401, message: "A valid bearer token is required (Authorization: Bearer <MUSTER_API_TOKEN>)" },
  SESSION_TOKEN_REQUIRED: {
    status: 401,
    message: "This operation needs the per-process session token: the X-Session-Token header (the token is in $MUSTER_HOME/session-token) or a browser logged in through the login link (`muster login`)",
  },
  LOGIN_CODE_INVALID: { status: 401, message: "This login link is unknown, already used or expired; run `muster login` for a new one" },
  ORIGIN_NOT_ALLOWED: { status: 403, message: "Cross-origin request from an origin that is not allowed" },
  SESSION_COOKIE_NOT_SAME_ORIGIN: { status: 403, message: "The browser session counts only on same-origin requests (an allowed Origin or Sec-Fetch-Site: same-origin)" },
  SESSION_CSRF_REQUIRED: {
    status: 403,
    message: "The browser session cookie counts only with its session's CSRF secret in the X-Muster-Csrf header (delivered in the login redirect's #csrf= fragment)",
  },
  AGENT_CANNOT_LOG_IN: { status: 403, message: "A request that carries an agent identity (X-Agent-Id) cannot log in or mint login links" },
  HOST_NOT_ALLOWED: { status: 403, message: "The Host header names a host this server does not answer for" },
  HOST_HEADER_REQUIRED: { status: 400, message: "The request has no Host header" },
  INVALID_UNICODE: { status: 400, message: "The request body contains a string with a lone surrogate (an unpaired \\uD800-\\uDFFF escape); send well-formed Unicode" },
  UNSAFE_JSON_KEY: { status: 400, message: "The request body contains a \"__proto__\" key, which is not accepted (it would be dropped or reinterpreted)" },
  MALFORMED_REQUEST: { status: 400, message: "The request could not be parsed as HTTP" },
  REQUEST_TIMEOUT: { status: 408, message: "The request was not received in time" },
  HEADERS_TOO_LARGE: { status: 431, message: "The request headers are too large" },
  FORBIDDEN: { status: 403, message: "This action is not allowed: {reason}" },
  NOT_FOUND: { status: 404, message: "No route for {method} {path}" },
  METHOD_NOT_ALLOWED: { status: 405, message: "{method} is not allowed on {path}" },
  CONFLICT: { status: 409, message: "Conflict: {reason}" },
  PAYLOAD_TOO_LARGE: { status: 413, message: "The request body is larger than {limit}" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "Request bodies must be JSON (Content-Type: application/json)" },
  RATE_LIMITED: { status: 429, message: "Too many {feature} requests; retry in {retryAfterSeconds} s" },
  BAD_REQUEST: { status: 400, message: "The request could not be processed" },
  PATH_OUTSIDE_WORKSPACE: { status: 400, message: "The path must be a relative path inside the workspace" },
  GATE_UNKNOWN_KIND: { status: 400, message: "No gated action of kind \"{kind}\" is defined" },
  GATE_UNAVAILABLE: { status: 503, message: "The approvals plugin is not loaded, so gated actions cannot be requested" },
  INTERNAL_ERROR: { status: 500, message: "Internal error; the server log has the details under this request id" },
  BAD_GATEWAY: { status: 502, message: "The upstream service answered with an error: {reason}" },
  SERVICE_UNAVAILABLE: { status: 503, message: "A dependency is unavailable: {reason}" },
  DATABASE_BUSY: { status: 503, message: "The database is locked by another process or connection and stayed locked past the retry budget; retry after the Retry-After seconds" },
  DATABASE_UNAVAILABLE: { status: 503, message: "The database cannot be reached or written (server gone or shutting down, read-only, an I/O error or a damaged file); the server log has the details" },
  DATABASE_FULL: { status: 507, message: "The database has no space left (disk full or its size limit reached); free space and retry" },
  GATEWAY_TIMEOUT: { status: 504, message: "The upstream service timed out: {reason}" },
  GATEWAY_UNAVAILABLE: { status: 503, message: "The OpenClaw gateway is not connected ({reason}); /api/health shows its state, `muster doctor` what to fix" },
  GATEWAY_UNAUTHORIZED: { status: 503, message: "The OpenClaw gateway refused Muster's token: set GATEWAY_TOKEN to the gateway's token (gateway.auth.token in openclaw.json)" },
  GATEWAY_ERROR: { status: 502, message: "The OpenClaw gateway answered {method} with an error: {gatewayMessage}" },
});
