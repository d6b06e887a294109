import type { MusterClient } from "../client.ts";
import type { Operations } from "../generated/operations.ts";
import { MusterTimeoutError, type MusterRequestErrorType } from "../errors.ts";
import { subscribe } from "../sse.ts";

/** Parameters of {@link waitForDecision}. */
export interface WaitForDecisionParameters {
  approvalId: string;
  /** Give up after this long (default: wait until decided or aborted). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** How often to re-read the approval besides listening to the stream (default 15 s). */
  pollIntervalMs?: number;
}

/** The approval once it is no longer pending (`approved` or `rejected`, `expired` telling an expiry apart). */
export type WaitForDecisionReturnType = Operations["getApprovalsById"]["response"]["approval"];

/** `MusterTimeoutError` after `timeoutMs`, `MusterApiError` (`APPROVAL_NOT_FOUND`), the signal's reason, or a transport error. */
export type WaitForDecisionErrorType = MusterRequestErrorType;

const DECIDED = /^approvals\.approval\.(approved|rejected)$/;

/**
 * Waits until a human decides an approval. Listens to the live stream for the decision and
 * re-reads the approval on (re)connect and every `pollIntervalMs`, so a decision made while
 * disconnected, or an expiry, is not missed.
 *
 * @example
 * const decided = await muster.waitForDecision({ approvalId: approval.id, timeoutMs: 60 * 60_000 });
 * if (decided.status === "approved") { … }
 */
export async function waitForDecision(client: MusterClient, parameters: WaitForDecisionParameters): Promise<WaitForDecisionReturnType> {
  const done = new AbortController();
  const signals = [done.signal, ...(parameters.signal ? [parameters.signal] : [])];
  const timeout = parameters.timeoutMs !== undefined ? AbortSignal.timeout(parameters.timeoutMs) : undefined;
  if (timeout) signals.push(timeout);
  const stop = AbortSignal.any(signals);
  const read = async () => (await client.getApprovalsById({ id: parameters.approvalId }, { signal: stop })).approval;

  return new Promise<WaitForDecisionReturnType>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      done.abort();
      outcome();
    };
    const check = () =>
      read().then(
        (approval) => {
          if (approval.status !== "pending" || approval.expired) finish(() => resolve(approval));
        },
        (error) => {
          if (!stop.aborted) finish(() => reject(error));
        },
      );
    stop.addEventListener(
      "abort",
      () => finish(() => reject(timeout?.aborted ? new MusterTimeoutError(parameters.timeoutMs!) : parameters.signal?.reason)),
      { once: true },
    );
    const poll = setInterval(check, parameters.pollIntervalMs ?? 15_000);
    subscribe(client.config, {
      signal: stop,
      onOpen: check,
      onEvent: ({ data }) => {
        const frame = data as { type?: string; name?: string; payload?: { id?: string } };
        if (frame.type === "event" && DECIDED.test(frame.name ?? "") && frame.payload?.id === parameters.approvalId) void check();
      },
    });
  });
}
