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

/**
 * Declares an error catalogue and returns one factory per code; each factory's parameters
 * are typed from its message template.
 *
 * @example
 * const errors = defineErrors({
 *   TASK_NOT_FOUND: { status: 404, message: "No task with id {id}" },
 * });
 * throw errors.TASK_NOT_FOUND({ id });
 */
export function defineErrors<const T extends Record<string, ErrorDescriptor>>(catalogue: T): ErrorCatalogue<T> {
  const factories: Record<string, unknown> = {};
  for (const [code, descriptor] of Object.entries(catalogue)) {
    const { status, message } = descriptor;
    const factory = (params: Record<string, unknown> = {}, options: MusterErrorOptions = {}) =>
      new MusterError(code, options.status ?? status, formatMessage(message, params), options);
    factories[code] = Object.assign(factory, { code, status, message });
  }
  Object.defineProperty(factories, ERROR_CATALOGUE, { value: true });
  return factories as ErrorCatalogue<T>;
}

/** Whether `value` is a catalogue made by {@link defineErrors}. */
export function isErrorCatalogue(value: unknown): value is ErrorCatalogue {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[ERROR_CATALOGUE] === true;
}

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
  DATABASE_BUSY: { status: 503, message: "The database is locked by another process and stayed locked past the retry budget; retry after the Retry-After seconds" },
  DATABASE_UNAVAILABLE: { status: 503, message: "The database cannot be written (read-only, an I/O error or a damaged file); the server log has the details" },
  DATABASE_FULL: { status: 507, message: "The database has no space left (disk full or its size limit reached); free space and retry" },
  GATEWAY_TIMEOUT: { status: 504, message: "The upstream service timed out: {reason}" },
  GATEWAY_UNAVAILABLE: { status: 503, message: "The OpenClaw gateway is not connected ({reason}); /api/health shows its state, `muster doctor` what to fix" },
  GATEWAY_UNAUTHORIZED: { status: 503, message: "The OpenClaw gateway refused Muster's token: set GATEWAY_TOKEN to the gateway's token (gateway.auth.token in openclaw.json)" },
  GATEWAY_ERROR: { status: 502, message: "The OpenClaw gateway answered {method} with an error: {gatewayMessage}" },
});
