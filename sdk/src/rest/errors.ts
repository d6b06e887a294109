import { errorStatuses, type MusterErrorCode } from "./generated/error-codes.ts";

export { errorStatuses, type MusterErrorCode };

/** One bad field of a validation error (`details` of `VALIDATION_FAILED`). */
export interface MusterErrorDetail {
  path?: string;
  reason?: string;
  in?: string;
  [field: string]: unknown;
}

/**
 * The server answered with its error envelope `{ ok: false, error: { code, message, details? } }`.
 * Branch on `code` (typed: every code of docs/errors.md), never on `message`.
 *
 * @example
 * try { await muster.getTasksById({ id }) }
 * catch (error) { if (isMusterApiError(error, "TASK_NOT_FOUND")) … }
 */
export class MusterApiError<C extends string = MusterErrorCode> extends Error {
  override name = "MusterApiError";
  readonly code: C;
  readonly status: number;
  readonly details: unknown;
  /** The server's `X-Request-Id`, to find the request in its log. */
  readonly requestId: string | null;
  /** Seconds from `Retry-After` (429, 503), when the server sent one. */
  readonly retryAfter: number | null;
  constructor(init: { code: C; message: string; status: number; details?: unknown; requestId?: string | null; retryAfter?: number | null }) {
    super(init.message);
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
  }
}

/** The server could not be reached, or the connection broke before an answer (nothing is known about the outcome of a write). */
export class MusterNetworkError extends Error {
  override name = "MusterNetworkError";
  readonly code = "NETWORK_ERROR" as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No answer within the client's `timeoutMs`. */
export class MusterTimeoutError extends Error {
  override name = "MusterTimeoutError";
  readonly code = "TIMEOUT" as const;
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The server answered something that is not its JSON envelope (a proxy's HTML page, a truncated body). */
export class MusterResponseError extends Error {
  override name = "MusterResponseError";
  readonly code = "INVALID_RESPONSE" as const;
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Every error a REST call can throw. */
export type MusterRequestErrorType = MusterApiError | MusterNetworkError | MusterTimeoutError | MusterResponseError;

/** Narrows to a server error, optionally of one code. */
export function isMusterApiError<C extends MusterErrorCode>(error: unknown, code?: C): error is MusterApiError<C> {
  return error instanceof MusterApiError && (code === undefined || error.code === code);
}
