import { z } from "@muster/plugin";

/** `config.approvals` in muster.config.json: bounds on what requesters can make the queue hold. */
export const approvalsConfig = z.strictObject({
  /** Pending (unexpired) approvals one requester may have at once; more is refused with 429 `APPROVAL_PENDING_LIMIT`. */
  maxPendingPerRequester: z.number().int().min(1).max(10_000).default(100),
  /** Largest payload, in UTF-8 bytes of its JSON text; more is refused with 413 `APPROVAL_PAYLOAD_TOO_LARGE`. */
  maxPayloadBytes: z.number().int().min(1024).max(1024 * 1024).default(256 * 1024),
  /**
   * How long an approved action may run before its approval is recorded `failed` (it may still
   * take effect): an executor that never settles would otherwise keep the approval `running`
   * and the deciding request open until the next restart.
   */
  executionTimeoutMs: z.number().int().min(100).max(24 * 60 * 60_000).default(10 * 60_000),
});

export type ApprovalsConfig = z.output<typeof approvalsConfig>;
