import { clip, type GatedAction, type Logger } from "@muster/plugin";
import { REDACTION_FAILED } from "../../vault/tokens.ts";
import { hashPayload, type StoredApproval } from "./approval-record.ts";

export type ExecutionOutcome =
  | { status: "succeeded"; result: string | null; error: null }
  | { status: "failed"; result: null; error: string };

const RESULT_MAX = 64 * 1024;
const ERROR_MAX = 2000;


/**
 * Serialises an executor result for storage, redacted like its errors (an upstream's answer
 * can echo the credential it was sent); oversized or unserialisable results keep a note
 * instead. Redaction comes before any preview is cut, so no prefix of a secret survives the
 * cut. A result whose redacted text is no longer JSON (a secret spanning JSON syntax) is
 * withheld. Never throws.
 */
function storeResult(value: unknown, redact: (text: string) => string): string | null {
  let text: string | undefined;
  try {
    text = JSON.stringify(value ?? null);
  } catch {
    return JSON.stringify({ unserialisable: true, preview: clip(redactOrWithhold(redact, describeValue(value)), 1000) });
  }
  if (text === undefined) return null;
  const redacted = redactOrWithhold(redact, text);
  if (redacted !== text && !isJson(redacted)) return JSON.stringify({ withheld: true, reason: "the result quoted a stored secret value that could not be cut out of it" });
  return redacted.length > RESULT_MAX ? JSON.stringify({ truncated: true, preview: clip(redacted, 1000) }) : redacted;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** `String(value)`, except that a value whose conversion throws (a null-prototype object, a hostile `toString`) gets its type name. */
function describeValue(value: unknown): string {
  try {
    return String(value);
  } catch {
    return `[${typeof value}]`;
  }
}

/** A thrown value's message; a hostile `message` getter or `toString` cannot make this throw. */
function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? String(error.message || error.name) : describeValue(error);
  } catch {
    return "[the action threw a value that cannot be shown]";
  }
}

/** Redaction that fails closed: if it throws, the whole message is withheld and the (possibly quoting) error dropped. */
function redactOrWithhold(redact: (text: string) => string, text: string): string {
  try {
    const result = redact(text);
    return typeof result === "string" ? result : REDACTION_FAILED;
  } catch {
    return REDACTION_FAILED;
  }
}

const failed = (error: string): ExecutionOutcome => ({ status: "failed", result: null, error: clip(error, ERROR_MAX) });

const TIMED_OUT = Symbol("timed out");

/**
 * The executor's promise, or {@link TIMED_OUT} once `timeoutMs` passed. A late settlement is
 * only logged (without its value or message, which were never redacted).
 */
async function settledWithin(running: Promise<unknown>, timeoutMs: number, late: (how: string) => void): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, TIMED_OUT);
    timer.unref();
  });
  try {
    const first = await Promise.race([running, deadline]);
    if (first === TIMED_OUT) running.then(() => late("succeeded"), () => late("failed"));
    return first;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs a gated action for an approval that has just been approved: re-checks the stored
 * payload's SHA-256 first (a payload changed after the request never runs), then calls the
 * executor once with the parsed stored payload. Does not throw (the caller still records a
 * failure if it ever does, so an approval never stays `running`).
 */
export async function runExecutor(
  row: StoredApproval,
  action: GatedAction | undefined,
  decidedBy: string,
  logger: Logger,
  redact: (text: string) => string,
  timeoutMs: number,
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
  let result: unknown;
  try {
    // Through a promise so that an executor throwing synchronously is caught like a rejection.
    const running = Promise.resolve().then(() => action.execute(payload, { approvalId: row.id, decidedBy }));
    result = await settledWithin(running, timeoutMs, (how) =>
      logger.warn({ approvalId: row.id, kind: row.command, outcome: how }, "gated action settled after its approval was recorded as timed out"),
    );
  } catch (error) {
    // The message goes to the approval, a public event, an activity, a notification and the
    // log: an HTTP client's error can quote a credential, so stored secret values are
    // redacted first and the raw error object is never logged.
    const message = redactOrWithhold(redact, messageOf(error));
    logger.warn({ approvalId: row.id, kind: row.command, error: message }, "gated action failed");
    return failed(message);
  }
  if (result === TIMED_OUT) {
    logger.warn({ approvalId: row.id, kind: row.command, timeoutMs }, "gated action did not finish in time; recorded as failed");
    return failed(`The action did not finish within ${timeoutMs} ms and is recorded as failed, but it may still take effect: check before requesting it again`);
  }
  // Outside the try: the action took effect, so a result that cannot be stored is noted, never reported as a failure.
  return { status: "succeeded", result: storeResult(result, redact), error: null };
}
