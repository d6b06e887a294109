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
}

/** An error a client can act on, or a dependency failure with a stable code. */
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

type Template = string | ((params: Record<string, unknown>) => string);
export interface ErrorDescriptor { status: number; message: Template }

/**
 * Declares a plugin's error catalogue and returns one factory per code.
 *
 * @example
 * const errors = defineErrors({
 *   TASK_NOT_FOUND: { status: 404, message: (p) => `Task ${p.id} does not exist` },
 * });
 * throw errors.TASK_NOT_FOUND({ id });
 */
export function defineErrors<const T extends Record<string, ErrorDescriptor>>(catalogue: T) {
  const factories = {} as { [K in keyof T]: (params?: Record<string, unknown>, options?: MusterErrorOptions) => MusterError };
  for (const [code, descriptor] of Object.entries(catalogue)) {
    factories[code as keyof T] = (params = {}, options = {}) =>
      new MusterError(
        code,
        descriptor.status,
        typeof descriptor.message === "function" ? descriptor.message(params) : descriptor.message,
        options,
      );
  }
  return factories;
}

/** Errors the host itself raises; plugins may raise them too. */
export const hostErrors = defineErrors({
  VALIDATION_FAILED: { status: 400, message: "The request is not valid" },
  INVALID_JSON: { status: 400, message: "The request body is not valid JSON" },
  INVALID_ID: { status: 400, message: (p) => `The ${p.name ?? "id"} is not a valid identifier` },
  UNAUTHORIZED: { status: 401, message: "A valid bearer token is required (Authorization: Bearer <MUSTER_API_TOKEN>)" },
  SESSION_TOKEN_REQUIRED: {
    status: 401,
    message: "This operation needs the per-process session token: the X-Session-Token header (the token is in $MUSTER_HOME/session-token) or a browser logged in through the login link (`muster login`)",
  },
  LOGIN_CODE_INVALID: { status: 401, message: "This login link is unknown, already used or expired; run `muster login` for a new one" },
  ORIGIN_NOT_ALLOWED: { status: 403, message: "Cross-origin request from an origin that is not allowed" },
  SESSION_COOKIE_NOT_SAME_ORIGIN: { status: 403, message: "The browser session counts only on same-origin requests (an allowed Origin or Sec-Fetch-Site: same-origin)" },
  AGENT_CANNOT_LOG_IN: { status: 403, message: "A request that carries an agent identity (X-Agent-Id) cannot log in or mint login links" },
  HOST_NOT_ALLOWED: { status: 403, message: "The Host header names a host this server does not answer for" },
  HOST_HEADER_REQUIRED: { status: 400, message: "The request has no Host header" },
  INVALID_UNICODE: { status: 400, message: "The request body contains a string with a lone surrogate (an unpaired \\uD800-\\uDFFF escape); send well-formed Unicode" },
  UNSAFE_JSON_KEY: { status: 400, message: "The request body contains a \"__proto__\" key, which is not accepted (it would be dropped or reinterpreted)" },
  MALFORMED_REQUEST: { status: 400, message: "The request could not be parsed as HTTP" },
  REQUEST_TIMEOUT: { status: 408, message: "The request was not received in time" },
  HEADERS_TOO_LARGE: { status: 431, message: "The request headers are too large" },
  FORBIDDEN: { status: 403, message: (p) => String(p.reason ?? "This action is not allowed") },
  NOT_FOUND: { status: 404, message: (p) => `No route for ${p.method} ${p.path}` },
  METHOD_NOT_ALLOWED: { status: 405, message: (p) => `${p.method} is not allowed on ${p.path}` },
  CONFLICT: { status: 409, message: (p) => String(p.reason ?? "Conflict") },
  PAYLOAD_TOO_LARGE: { status: 413, message: (p) => `The request body is larger than ${p.limit} bytes` },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "Request bodies must be JSON (Content-Type: application/json)" },
  RATE_LIMITED: { status: 429, message: (p) => `Too many ${p.feature ?? ""} requests; retry later`.replace("  ", " ") },
  INTERNAL_ERROR: { status: 500, message: "Internal error; the server log has the details under this request id" },
  BAD_GATEWAY: { status: 502, message: (p) => String(p.reason ?? "The upstream service answered with an error") },
  SERVICE_UNAVAILABLE: { status: 503, message: (p) => String(p.reason ?? "A dependency is unavailable") },
  DATABASE_BUSY: { status: 503, message: "The database is locked by another process and stayed locked past the retry budget; retry after the Retry-After seconds" },
  DATABASE_UNAVAILABLE: { status: 503, message: "The database cannot be written (read-only, an I/O error or a damaged file); the server log has the details" },
  DATABASE_FULL: { status: 507, message: "The database has no space left (disk full or its size limit reached); free space and retry" },
  GATEWAY_TIMEOUT: { status: 504, message: (p) => String(p.reason ?? "The upstream service timed out") },
});
