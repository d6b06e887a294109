// Calls through another instance's gateway connection (leased-link.ts). The caller writes the
// call as a row addressed to the lease holder and wakes it; the holder takes it once, makes it
// on its own connection and writes the answer (for `agent` the accepted answer first), waking
// the caller. The caller's promise keeps the GatewayClient contract: its own timeout
// (GATEWAY_TIMEOUT), its AbortSignal, the holder's coded errors as they were thrown there, and
// GATEWAY_UNAVAILABLE when the holder is gone or never takes the call (never a hang).
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { GatewayAgentAccepted, GatewayCallOptions } from "../../plugin-api/gateway.ts";
import { hostErrors, MusterError, reviveError } from "../../plugin-api/errors.ts";
import type { HostGatewayClient } from "./client.ts";
import type { CallRow, LinkTables } from "./lease-tables.ts";
import { PendingCalls } from "./pending-calls.ts";

/** An error as the holder threw it, stored with its answer. */
interface StoredError {
  code?: string;
  status?: number;
  message: string;
  details?: MusterError["details"];
  headers?: Record<string, string>;
}

type Outcome = { ok: true; result: unknown } | { ok: false; error: StoredError };

function storedError(error: unknown): StoredError {
  if (error instanceof MusterError) return { code: error.code, status: error.status, message: error.message, ...(error.details ? { details: error.details } : {}), ...(error.headers ? { headers: error.headers } : {}) };
  return { message: error instanceof Error ? error.message : String(error) };
}

/** The holder's error again: a coded one is rebuilt as the same MusterError (code, status, message, details). */
function rebuiltError(error: StoredError): Error {
  if (error.code && error.status) return reviveError({ ...error, code: error.code, status: error.status });
  return new Error(error.message);
}

interface Sent {
  holder: string;
  at: number;
  taken: boolean;
  acceptedSeen: boolean;
}

/** The caller's side: calls this instance sent to the holder, waiting for their answers. */
export class CallForwarder {
  private readonly pending: PendingCalls;
  private readonly sent = new Map<string, Sent>();
  private readonly tables: LinkTables;
  private readonly logger: Logger;
  private readonly pickupMs: number;

  constructor(tables: LinkTables, logger: Logger, pickupMs: number) {
    this.tables = tables;
    this.logger = logger;
    this.pickupMs = pickupMs;
    this.pending = new PendingCalls(logger);
  }

  send(holder: string, method: string, params: unknown, options: GatewayCallOptions & { timeoutMs: number }, twoStage: boolean, onAccepted?: (accepted: GatewayAgentAccepted) => void): Promise<unknown> {
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const id = randomUUID();
    const answer = this.pending.add(id, { method, timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}), twoStage, ...(onAccepted ? { onAccepted } : {}) });
    this.sent.set(id, { holder, at: Date.now(), taken: false, acceptedSeen: false });
    const done = () => {
      this.sent.delete(id);
      void this.tables.forget(id).catch((error: unknown) => this.logger.debug({ err: error }, "a forwarded gateway call's row was not removed; pruned later"));
    };
    answer.then(done, done);
    this.tables
      .insertCall({ id, holder, method, params: JSON.stringify(params ?? {}), twoStage, timeoutMs: options.timeoutMs })
      .catch((error: unknown) => this.pending.fail(id, hostErrors.GATEWAY_UNAVAILABLE({ reason: `the call could not be passed to the instance holding the gateway link (${(error as Error).message})` })));
    return answer;
  }

  /** The holder took, accepted or answered call `id`: passes on what is new. */
  async onReply(id: string): Promise<void> {
    const sent = this.sent.get(id);
    if (!sent || !this.pending.has(id)) return;
    const row = await this.tables.readCall(id).catch((error: unknown) => this.logger.warn({ err: error }, "a forwarded gateway answer could not be read"));
    if (!row || !this.pending.has(id)) return;
    sent.taken = true;
    if (row.accepted && !sent.acceptedSeen) {
      sent.acceptedSeen = true;
      this.pending.settle({ type: "res", id, ok: true, payload: JSON.parse(row.accepted) });
    }
    if (row.state !== "done" || !row.outcome) return;
    const outcome = JSON.parse(row.outcome) as Outcome;
    if (outcome.ok) this.pending.settle({ type: "res", id, ok: true, payload: outcome.result });
    else this.pending.fail(id, rebuiltError(outcome.error));
  }

  /**
   * The lease's holder as just read: a call sent to another instance, or one its holder has
   * not taken within the pickup time (a holder that died before the registry says so), fails
   * with GATEWAY_UNAVAILABLE.
   */
  checkHolder(holder: string | null): void {
    const now = Date.now();
    for (const [id, sent] of this.sent) {
      if (sent.holder !== holder) this.pending.fail(id, hostErrors.GATEWAY_UNAVAILABLE({ reason: "the instance holding the gateway link stopped while the call was waiting" }));
      else if (!sent.taken && now - sent.at > this.pickupMs) this.pending.fail(id, hostErrors.GATEWAY_UNAVAILABLE({ reason: `the instance holding the gateway link did not take the call within ${this.pickupMs} ms` }));
    }
  }

  rejectAll(reason: string): void {
    this.pending.rejectAll(() => hostErrors.GATEWAY_UNAVAILABLE({ reason }));
  }
}

/** The holder's side: takes the calls sent to it and answers each once, in the row. */
export class CallServer {
  private client: HostGatewayClient | undefined;
  private readonly running = new Set<Promise<void>>();
  private readonly tables: LinkTables;
  private readonly me: string;
  private readonly logger: Logger;

  constructor(tables: LinkTables, me: string, logger: Logger) {
    this.tables = tables;
    this.me = me;
    this.logger = logger;
  }

  /** Serves with `client`; takes what was sent while nobody served. */
  serve(client: HostGatewayClient): void {
    this.client = client;
    void this.take(null);
  }

  /** Takes call `id` (null: every pending one, after a missed wake-up). */
  async take(id: string | null): Promise<void> {
    if (!this.client) return;
    let rows: CallRow[];
    try {
      rows = await this.tables.takeCalls(this.me, id);
    } catch (error) {
      this.logger.warn({ err: error }, "forwarded gateway calls could not be taken; taken at the next wake-up");
      return;
    }
    for (const row of rows) this.track(this.run(row));
  }

  /** Stops taking calls; waits (bounded) for the answers of the ones running to be written. */
  async drain(ms: number): Promise<void> {
    this.client = undefined;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.running]), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  private track(run: Promise<void>): void {
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private async run(row: CallRow): Promise<void> {
    const client = this.client;
    let accepted: Promise<void> = Promise.resolve();
    let outcome: Outcome;
    try {
      if (!client) throw hostErrors.GATEWAY_UNAVAILABLE({ reason: "the instance holding the gateway link is stopping" });
      const params = JSON.parse(row.params) as never;
      const options = { timeoutMs: row.timeoutMs };
      const result = row.twoStage
        ? await client.agent(params, { ...options, onAccepted: (a) => void (accepted = this.tables.accept(row.id, JSON.stringify(a)).catch((error: unknown) => this.logger.warn({ err: error }, "a forwarded agent's acceptance was not written"))) })
        : await client.request(row.method, params, options);
      outcome = { ok: true, result };
    } catch (error) {
      outcome = { ok: false, error: storedError(error) };
    }
    // The accepted answer is written before the final one, so the caller sees them in order.
    await accepted;
    await this.tables.answer(row.id, JSON.stringify(outcome)).catch((error: unknown) => this.logger.warn({ err: error, method: row.method }, "a forwarded gateway answer was not written; the caller times out"));
  }
}
