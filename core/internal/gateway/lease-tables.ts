// The statements of the leased gateway link (leased-link.ts), on the host's three team-mode
// tables (created with muster_instances in postgres-database.ts):
// - muster_gateway_leases: which instance holds each link, and the link's last state;
// - muster_gateway_calls: calls other instances forward to the holder, and their answers;
// - muster_gateway_events: the holder's gateway events (and state changes), numbered by the
//   database, read back by every other instance.
// NOTIFY on one channel is only a wake-up naming a row (a payload is limited to 8,000 bytes; a
// call's params or an event are not), never the data itself.
import { atomically } from "../../plugin-api/atomic-step.ts";
import type { OpenedDatabase } from "../database.ts";
import { NOW_MS } from "../instance-registry.ts";

export const LINK_CHANNEL = "muster_gateway";
/** The events table's name for a state change of the holder's connection (gateway event names have no colon). */
export const STATE_EVENT = "muster:state";

export interface LeaseRow {
  holder: string | null;
  /** The holder's last `{ status, hello }` (JSON), or null before its first. */
  state: string | null;
}

export interface CallRow {
  id: string;
  method: string;
  params: string;
  twoStage: boolean;
  timeoutMs: number;
}

export interface CallAnswerRow {
  state: "pending" | "taken" | "done";
  accepted: string | null;
  outcome: string | null;
}

export interface EventRow {
  id: number;
  event: string;
  payload: string;
}

export type Wake = "call" | "reply" | "events" | "lease";

export class LinkTables {
  private readonly db: OpenedDatabase;
  readonly link: string;

  constructor(db: OpenedDatabase, link: string) {
    this.db = db;
    this.link = link;
  }

  private execute<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.db.orm.em.getConnection().execute(sql, params, "all") as Promise<T[]>;
  }

  /** A wake-up for the instances of this link: `kind`, then the row's id. */
  notify(kind: Wake, id = ""): Promise<unknown> {
    return this.execute(`SELECT pg_notify(?, ?)`, [LINK_CHANNEL, `${kind}\t${this.link}\t${id}`]);
  }

  /**
   * Takes the lease when nobody holds it or its holder is dead by the registry (no heartbeat
   * within `deadAfterMs`, the database's clock), provided this instance is alive itself; then
   * reads who holds it. A conditional upsert: of instances racing for a dead holder's lease,
   * PostgreSQL re-checks the condition on the row the others wait for, so one wins.
   */
  async claim(me: string, deadAfterMs: number): Promise<LeaseRow> {
    const live = (id: string) => `EXISTS (SELECT 1 FROM muster_instances i WHERE i.id = ${id} AND i."heartbeatAt" > ${NOW_MS} - ${Number(deadAfterMs)})`;
    await this.execute(
      `INSERT INTO muster_gateway_leases (link, "instanceId", since) SELECT ?, ?, ${NOW_MS} WHERE ${live("?")}
       ON CONFLICT (link) DO UPDATE SET "instanceId" = EXCLUDED."instanceId", since = EXCLUDED.since, state = NULL
       WHERE muster_gateway_leases."instanceId" <> EXCLUDED."instanceId" AND NOT ${live('muster_gateway_leases."instanceId"')}`,
      [this.link, me, me],
    );
    const [row] = await this.execute<{ instanceId: string; state: string | null }>(`SELECT "instanceId", state FROM muster_gateway_leases WHERE link = ?`, [this.link]);
    return { holder: row?.instanceId ?? null, state: row?.state ?? null };
  }

  /** A stopping holder gives the lease back at once (and wakes the others to take it). */
  async release(me: string): Promise<void> {
    await this.execute(`DELETE FROM muster_gateway_leases WHERE link = ? AND "instanceId" = ?`, [this.link, me]);
    await this.notify("lease");
  }

  // ---- forwarded calls ---------------------------------------------------------------------

  async insertCall(call: CallRow & { holder: string }): Promise<void> {
    await this.execute(
      `INSERT INTO muster_gateway_calls (id, link, holder, method, params, "twoStage", "timeoutMs", "createdAt", state) VALUES (?, ?, ?, ?, ?, ?, ?, ${NOW_MS}, 'pending')`,
      [call.id, this.link, call.holder, call.method, call.params, call.twoStage, call.timeoutMs],
    );
    await this.notify("call", call.id);
  }

  /** The holder takes the pending calls sent to it (one by id, or all after a reconnect): each is taken once. */
  takeCalls(holder: string, id: string | null): Promise<CallRow[]> {
    return this.execute<CallRow>(
      `UPDATE muster_gateway_calls SET state = 'taken' WHERE link = ? AND holder = ? AND state = 'pending'${id ? " AND id = ?" : ""}
       RETURNING id, method, params, "twoStage", "timeoutMs"`,
      id ? [this.link, holder, id] : [this.link, holder],
    );
  }

  async accept(id: string, accepted: string): Promise<void> {
    await this.execute(`UPDATE muster_gateway_calls SET accepted = ? WHERE id = ?`, [accepted, id]);
    await this.notify("reply", id);
  }

  async answer(id: string, outcome: string): Promise<void> {
    await this.execute(`UPDATE muster_gateway_calls SET state = 'done', outcome = ? WHERE id = ?`, [outcome, id]);
    await this.notify("reply", id);
  }

  async readCall(id: string): Promise<CallAnswerRow | undefined> {
    const [row] = await this.execute<CallAnswerRow>(`SELECT state, accepted, outcome FROM muster_gateway_calls WHERE id = ?`, [id]);
    return row;
  }

  async forget(id: string): Promise<void> {
    await this.execute(`DELETE FROM muster_gateway_calls WHERE id = ?`, [id]);
  }

  /** Calls whose caller gave up (timed out, aborted, stopped) are left behind: removed after an hour. */
  async pruneCalls(): Promise<void> {
    await this.execute(`DELETE FROM muster_gateway_calls WHERE link = ? AND "createdAt" < ${NOW_MS} - 3600000`, [this.link]);
  }

  // ---- relayed events ----------------------------------------------------------------------

  /**
   * Appends the holder's events in order, the last state change also onto the lease row (for
   * instances that start later), and wakes the readers. One advisory lock orders the inserts,
   * so ids become visible in increasing order even across a change of holder.
   */
  async writeEvents(me: string, batch: { event: string; payload: string }[]): Promise<void> {
    const link = this.link;
    const lastState = batch.filter((e) => e.event === STATE_EVENT).at(-1);
    await atomically(this.db, function* (tx) {
      yield* tx.lock(`gateway:events:${link}`);
      for (const e of batch) yield* tx.run(`INSERT INTO muster_gateway_events (link, event, payload, "createdAt") VALUES (?, ?, ?, ${NOW_MS})`, [link, e.event, e.payload]);
      if (lastState) yield* tx.run(`UPDATE muster_gateway_leases SET state = ? WHERE link = ? AND "instanceId" = ?`, [lastState.payload, link, me]);
      yield* tx.get(`SELECT pg_notify(?, ?)`, [LINK_CHANNEL, `events\t${link}\t`]);
    });
  }

  async readEvents(after: number, limit: number): Promise<EventRow[]> {
    const rows = await this.execute<EventRow>(`SELECT id, event, payload FROM muster_gateway_events WHERE link = ? AND id > ? ORDER BY id LIMIT ?`, [this.link, after, limit]);
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  }

  async topEventId(): Promise<number> {
    const [row] = await this.execute<{ top: string | number | null }>(`SELECT MAX(id) AS top FROM muster_gateway_events WHERE link = ?`, [this.link]);
    return Number(row?.top ?? 0);
  }

  /** Events older than ten minutes: every reader is alive (or has restarted reading from the top). */
  async pruneEvents(): Promise<void> {
    await this.execute(`DELETE FROM muster_gateway_events WHERE link = ? AND "createdAt" < ${NOW_MS} - 600000`, [this.link]);
  }
}
