// Requests waiting for their `res`, correlated by id. Each has its own timeout; the `agent`
// method answers twice on one id (accepted, then final), so such a call stays pending past
// its first answer. An answer for an id nobody waits for (late, after a timeout, or made
// up) is dropped with a debug log.
import type { Logger } from "pino";
import type { GatewayAgentAccepted, GatewayErrorShape } from "../../plugin-api/gateway.ts";
import { hostErrors, type MusterError } from "../../plugin-api/errors.ts";
import type { ResFrame } from "./frames.ts";

interface Pending {
  method: string;
  resolve(payload: unknown): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
  /** Set for the two-stage `agent` method. */
  onAccepted?: (accepted: GatewayAgentAccepted) => void;
  accepted: boolean;
  cleanup(): void;
}

export interface PendingOptions {
  method: string;
  timeoutMs: number;
  signal?: AbortSignal;
  twoStage?: boolean;
  onAccepted?: (accepted: GatewayAgentAccepted) => void;
}

/** The Muster error for a gateway `res` with `ok:false` (502, the gateway's code and message in details). */
export function gatewayError(method: string, error: GatewayErrorShape): MusterError {
  return hostErrors.GATEWAY_ERROR(
    { method, gatewayMessage: error.message },
    {
      details: {
        code: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
        ...(error.retryable !== undefined ? { retryable: error.retryable } : {}),
        ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
      },
    },
  );
}

export class PendingCalls {
  private readonly calls = new Map<string, Pending>();
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger;
  }

  get size(): number {
    return this.calls.size;
  }

  /** Registers a call under `id`; the promise settles with its (final) answer. */
  add(id: string, options: PendingOptions): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.calls.get(id)?.cleanup();
        reject(options.signal?.reason ?? new Error("aborted"));
      };
      const timer = setTimeout(() => {
        this.calls.get(id)?.cleanup();
        reject(hostErrors.GATEWAY_TIMEOUT({ reason: `the OpenClaw gateway did not answer ${options.method} within ${options.timeoutMs} ms` }));
      }, options.timeoutMs);
      const pending: Pending = {
        method: options.method,
        resolve,
        reject,
        timer,
        accepted: false,
        ...(options.twoStage ? { onAccepted: options.onAccepted ?? (() => {}) } : {}),
        cleanup: () => {
          clearTimeout(timer);
          options.signal?.removeEventListener("abort", onAbort);
          this.calls.delete(id);
        },
      };
      this.calls.set(id, pending);
      options.signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Routes a `res` frame to its call. */
  settle(frame: ResFrame): void {
    const pending = this.calls.get(frame.id);
    if (!pending) {
      this.logger.debug({ id: frame.id, ok: frame.ok }, "gateway answer for an unknown or finished request id dropped");
      return;
    }
    if (!frame.ok) {
      pending.cleanup();
      pending.reject(gatewayError(pending.method, frame.error));
      return;
    }
    const payload = frame.payload as { status?: unknown } | undefined;
    if (pending.onAccepted && !pending.accepted && payload?.status === "accepted") {
      pending.accepted = true;
      try {
        pending.onAccepted(payload as GatewayAgentAccepted);
      } catch (error) {
        this.logger.warn({ err: error, method: pending.method }, "onAccepted listener threw; ignored");
      }
      return;
    }
    pending.cleanup();
    pending.resolve(frame.payload);
  }

  /** Whether a call waits under `id`. */
  has(id: string): boolean {
    return this.calls.has(id);
  }

  /** Rejects one waiting call with `error` (an answer relayed from another instance, or its loss). */
  fail(id: string, error: unknown): void {
    const pending = this.calls.get(id);
    if (!pending) return;
    pending.cleanup();
    pending.reject(error);
  }

  /** Rejects every waiting call (the connection is gone). */
  rejectAll(error: () => unknown): void {
    for (const pending of [...this.calls.values()]) {
      pending.cleanup();
      pending.reject(error());
    }
  }
}
