/**
 * How a platform failure is treated by the outbox:
 * - `retry`: 429 or 5xx; nothing was posted, try again later (`retryAfterMs` from Retry-After);
 * - `failed`: refused (other 4xx), unreachable, or a preparation step that failed; nothing posted;
 * - `unknown`: the post request was sent and its answer never came (timeout, dropped
 *   connection); the platform may have the post, so it is never re-sent blindly.
 */
export type FailureKind = "retry" | "failed" | "unknown";

export class PlatformFailure extends Error {
  readonly kind: FailureKind;
  readonly retryAfterMs: number | null;
  constructor(kind: FailureKind, message: string, retryAfterMs: number | null = null) {
    super(message);
    this.name = "PlatformFailure";
    this.kind = kind;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Largest part of an error answer kept in a failure message. */
const BODY_PREVIEW = 500;

/** Retry-After as milliseconds: delta seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Whether a fetch error happened before anything was sent (connection refused, no such host). */
function neverSent(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === "string" && ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"].includes(code);
}

export interface CallOptions {
  /** The request that creates the post: a lost answer here makes the outcome unknown. */
  creates?: boolean;
}

/**
 * Platform requests with a deadline, no redirects (a credential never follows one) and
 * answers classified for the outbox. Messages name the step and status, never a header.
 */
export class PlatformHttp {
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
  }

  async call(step: string, url: string, init: RequestInit, options: CallOptions = {}): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      if (neverSent(error)) throw new PlatformFailure("failed", `${step}: the platform could not be reached (${(error as { cause?: { code?: string } }).cause?.code})`);
      const timedOut = (error as Error)?.name === "TimeoutError" || (error as Error)?.name === "AbortError";
      const what = timedOut ? `no answer within ${this.timeoutMs} ms` : "the connection failed before an answer";
      if (options.creates) throw new PlatformFailure("unknown", `${step}: ${what}; the post may or may not exist, so it is not sent again`);
      throw new PlatformFailure("failed", `${step}: ${what}; nothing was posted`);
    }
    if (res.status >= 200 && res.status < 300) return res;
    const body = await this.preview(res);
    const message = `${step}: HTTP ${res.status}${body ? `: ${body}` : ""}`;
    if (res.status === 429) throw new PlatformFailure("retry", message, retryAfterMs(res.headers.get("retry-after")));
    if (res.status >= 500) throw new PlatformFailure("retry", message);
    throw new PlatformFailure("failed", message);
  }

  /** The JSON of a successful answer, or null: an unreadable answer after a post was created leaves the post's id unknown, not the post. */
  async json<T>(res: Response): Promise<T | null> {
    try {
      return (await res.json()) as T;
    } catch {
      return null;
    }
  }

  private async preview(res: Response): Promise<string> {
    try {
      return (await res.text()).slice(0, BODY_PREVIEW).replace(/\s+/g, " ").trim();
    } catch {
      return "";
    }
  }
}
