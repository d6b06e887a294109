// How a REST call travels: URL from the route table, headers from the client's identity,
// JSON in and out, the server's error envelope turned into MusterApiError, a timeout, and
// retries only where repeating cannot do anything twice.
import { operations, type OperationName } from "./generated/operations.ts";
import { MusterApiError, MusterNetworkError, MusterResponseError, MusterTimeoutError } from "./errors.ts";

export interface MusterClientConfig {
  /** The server, e.g. `http://127.0.0.1:3333`. */
  url: string;
  /** The human's credential (`$MUSTER_HOME/session-token`): needed to decide approvals and to delete. */
  sessionToken?: string;
  /** Sent as `X-Agent-Id`: the server then treats the caller as this agent (agents never decide approvals). */
  agentId?: string;
  /** `MUSTER_API_TOKEN`, when the server listens on a non-loopback address. */
  apiToken?: string;
  /** Per-call timeout (default 30 s). */
  timeoutMs?: number;
  /**
   * Retries (default 2) of calls that are safe to repeat: reads (GET) after a network failure,
   * 429, 502, 503 or 504, and any call the server refused with 429 (it did nothing). Writes are
   * never repeated after a network failure or a timeout: their outcome is unknown.
   */
  retries?: number;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface CallInput {
  query?: Record<string, unknown>;
  body?: unknown;
  [pathParam: string]: unknown;
}

const RETRYABLE_READ_STATUSES = new Set([429, 502, 503, 504]);
const MAX_BACKOFF_MS = 5_000;

export function buildUrl(base: string, name: OperationName, input: CallInput = {}): URL {
  const operation = operations[name];
  let path: string = operation.path;
  for (const param of operation.pathParams) {
    const value = input[param];
    if (typeof value !== "string" || value === "") throw new TypeError(`${name}: path parameter "${param}" must be a non-empty string`);
    path = path.replace(`{${param}}`, encodeURIComponent(value));
  }
  const url = new URL(path, base.endsWith("/") ? base : `${base}/`);
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value === undefined || value === null) continue;
    url.searchParams.set(key, String(value));
  }
  return url;
}

export function headersFor(config: MusterClientConfig, extra?: Record<string, string>): Headers {
  const headers = new Headers(extra);
  if (config.sessionToken) headers.set("x-session-token", config.sessionToken);
  if (config.agentId) headers.set("x-agent-id", config.agentId);
  if (config.apiToken) headers.set("authorization", `Bearer ${config.apiToken}`);
  return headers;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** Sends one call and returns the parsed answer (or the raw Response for streamed routes). */
export async function call(config: MusterClientConfig, name: OperationName, input: CallInput = {}, options: CallOptions = {}): Promise<unknown> {
  const operation = operations[name];
  const url = buildUrl(config.url, name, input);
  const isRead = operation.method === "GET";
  const attempts = 1 + Math.max(0, config.retries ?? 2);
  for (let attempt = 1; ; attempt++) {
    const timeoutMs = options.timeoutMs ?? config.timeoutMs ?? 30_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers = headersFor(config, input.body !== undefined ? { "content-type": "application/json" } : undefined);
    let response: Response;
    try {
      response = await (config.fetch ?? fetch)(url, { method: operation.method, headers, body: input.body !== undefined ? JSON.stringify(input.body) : undefined, signal });
    } catch (cause) {
      if (options.signal?.aborted) throw options.signal.reason;
      const failure = timeout.aborted ? new MusterTimeoutError(timeoutMs) : new MusterNetworkError(`${operation.method} ${url.pathname} failed: ${(cause as Error).message}`, { cause });
      if (isRead && attempt < attempts && !timeout.aborted) {
        await sleep(backoff(attempt), options.signal);
        continue;
      }
      throw failure;
    }
    if (response.ok && operation.raw) return response;
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      throw new MusterResponseError(response.status, `${operation.method} ${url.pathname} answered ${response.status} with a body that is not JSON`);
    }
    if (response.ok) return parsed;
    const error = toApiError(response, parsed);
    const retryable = response.status === 429 || (isRead && RETRYABLE_READ_STATUSES.has(response.status));
    if (retryable && attempt < attempts) {
      await sleep(error.retryAfter !== null ? Math.min(error.retryAfter * 1000, MAX_BACKOFF_MS) : backoff(attempt), options.signal);
      continue;
    }
    throw error;
  }
}

/** Exponential with jitter: ~200 ms, ~400 ms, … capped. */
const backoff = (attempt: number) => Math.min(MAX_BACKOFF_MS, 100 * 2 ** attempt) * (0.5 + Math.random() / 2);

function toApiError(response: Response, body: unknown): MusterApiError {
  const envelope = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  const retryAfterHeader = response.headers.get("retry-after");
  const retryAfter = retryAfterHeader !== null && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : null;
  if (!envelope || typeof envelope.code !== "string") {
    throw new MusterResponseError(response.status, `Answered ${response.status} without Muster's error envelope`);
  }
  return new MusterApiError({
    code: envelope.code as never,
    message: typeof envelope.message === "string" ? envelope.message : envelope.code,
    status: response.status,
    details: envelope.details,
    requestId: response.headers.get("x-request-id"),
    retryAfter,
  });
}
