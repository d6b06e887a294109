import type { GatedAction, Logger } from "../../../core/plugin-api/index.ts";
import { clip, hashPayload, type ApprovalRow } from "./approval-record.ts";

export type ExecutionOutcome =
  | { status: "succeeded"; result: string | null; error: null }
  | { status: "failed"; result: null; error: string };

const RESULT_MAX = 64 * 1024;
const ERROR_MAX = 2000;

/** Serialises an executor result for storage; oversized or unserialisable results keep a note instead. */
function storeResult(value: unknown): string | null {
  let text: string | undefined;
  try {
    text = JSON.stringify(value ?? null);
  } catch {
    return JSON.stringify({ unserialisable: true, preview: clip(String(value), 1000) });
  }
  if (text === undefined) return null;
  return text.length > RESULT_MAX ? JSON.stringify({ truncated: true, preview: clip(text, 1000) }) : text;
}

const failed = (error: string): ExecutionOutcome => ({ status: "failed", result: null, error: clip(error, ERROR_MAX) });

/**
 * Runs a gated action for an approval that has just been approved: re-checks the stored
 * payload's SHA-256 first (a payload changed after the request never runs), then calls the
 * executor once with the parsed stored payload. Never throws.
 */
export async function runExecutor(
  row: ApprovalRow,
  action: GatedAction | undefined,
  decidedBy: string,
  logger: Logger,
  redact: (text: string) => string,
): Promise<ExecutionOutcome> {
  if (row.payload === null || row.payloadHash === null || hashPayload(row.payload) !== row.payloadHash) {
    logger.warn({ approvalId: row.id, kind: row.command }, "approval payload hash mismatch; execution refused");
    return failed("PAYLOAD_INTEGRITY: the stored payload no longer matches the hash taken when the approval was requested; execution refused");
  }
  if (!action) return failed(`No plugin defines the gated action "${row.command}" any more; nothing was run`);
  let payload: unknown;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    return failed("PAYLOAD_INTEGRITY: the stored payload is not valid JSON; execution refused");
  }
  try {
    const result = await action.execute(payload, { approvalId: row.id, decidedBy });
    return { status: "succeeded", result: storeResult(result), error: null };
  } catch (error) {
    // The message goes to the approval, a public event, an activity, a notification and the
    // log: an HTTP client's error can quote a credential, so stored secret values are
    // redacted first and the raw error object is never logged.
    const message = redact(error instanceof Error ? error.message || error.name : String(error));
    logger.warn({ approvalId: row.id, kind: row.command, error: message }, "gated action failed");
    return failed(message);
  }
}
