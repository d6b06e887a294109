import { atomically, defineStore, raw, type Database, type EntityStore } from "@muster/plugin";
import { OutboxEntry, type OutboxEntryRow } from "../entities/outbox-entry.ts";
import { OUTBOX_FIELDS } from "./outbox-record.ts";

export type NewOutboxRow = Omit<OutboxEntryRow, "status" | "attempts" | "postId" | "postUrl" | "error" | "updatedAt" | "owner">;
export type Settled = { status: "published" | "failed" | "unknown"; postId: string | null; postUrl: string | null; error: string | null };

/** Newest first; text and number columns only, so rows need no mapping. */
const outbox = defineStore(OutboxEntry, { fields: OUTBOX_FIELDS, orderBy: [{ createdAt: "desc" }, { platform: "asc" }], mapRows: false });

const INTERRUPTED = "Muster stopped while this post was being sent; the platform may or may not have it, so it was not sent again";

/** One queued entry; a second execution of the same approval conflicts on `(approvalId, platform)` and adds nothing. */
const ENQUEUE = `INSERT INTO publishing_outbox (id, "approvalId", "draftId", platform, title, text, media, status, "dueAt", attempts, "decidedBy", "createdAt", "updatedAt")
  VALUES (?, ?, ?, ?, ?, ?, ?, 'approved', ?, 0, ?, ?, ?)
  ON CONFLICT ("approvalId", platform) DO NOTHING`;

/**
 * `publishing_outbox`, on SQLite and PostgreSQL: reads over the store kit. Every state change
 * is one conditional update through the query builder: an entry is claimed only from
 * `approved` and only when due, and settled or re-queued only from `publishing`, so two
 * runners (or two instances) can never both send one entry, and a settled entry never
 * changes again (PostgreSQL re-checks the condition on the row it waited for).
 */
export class OutboxStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof OutboxEntry>;
  /** This instance's id, recorded on the entries it claims (team mode); null in a store without one. */
  private readonly owner: () => string | null;
  constructor(db: () => Database, owner: () => string | null = () => null) {
    this.db = db;
    this.rows = outbox.on(db);
    this.owner = owner;
  }

  /**
   * Queues one approval's entries in one atomic step. `(approvalId, platform)` is unique and
   * conflicts are ignored, so executing the same approval again queues nothing new.
   * Returns how many were new.
   */
  enqueue(rows: NewOutboxRow[], now: string): Promise<number> {
    return atomically(this.db(), function* (tx) {
      let added = 0;
      for (const r of rows) added += (yield* tx.run(ENQUEUE, [r.id, r.approvalId, r.draftId, r.platform, r.title, r.text, r.media, r.dueAt, r.decidedBy, r.createdAt, now])).changes;
      return added;
    });
  }

  /** Takes a due `approved` entry for sending; true only for the one caller that moved it to `publishing`. */
  claim(id: string, now: string): Promise<boolean> {
    return this.changed(this.qb().update({ status: "publishing", attempts: raw("attempts + 1"), updatedAt: now, owner: this.owner() }).where({ id, status: "approved", dueAt: { $lte: now } }));
  }

  /** Records the final outcome of a send; only a `publishing` entry settles, once. */
  settle(id: string, outcome: Settled, now: string): Promise<boolean> {
    return this.changed(this.qb().update({ ...outcome, updatedAt: now }).where({ id, status: "publishing" }));
  }

  /** Puts a `publishing` entry back to `approved`, due at `dueAt` (a 429/5xx retry). */
  requeue(id: string, dueAt: string, error: string, now: string): Promise<boolean> {
    return this.changed(this.qb().update({ status: "approved", dueAt, error, updatedAt: now }).where({ id, status: "publishing" }));
  }

  /**
   * Entries a previous or dead process left `publishing` become `unknown`, never re-sent:
   * those no instance in `live` is sending (`hostTokens.instances.liveIds()`; empty: every one).
   */
  markInterrupted(now: string, live: readonly string[] = []): Promise<OutboxEntryRow[]> {
    const orphaned = live.length ? { status: "publishing" as const, $or: [{ owner: null }, { owner: { $nin: [...live] } }] } : { status: "publishing" as const };
    return this.qb().update({ status: "unknown", error: INTERRUPTED, updatedAt: now }).where(orphaned).returning([...OUTBOX_FIELDS]).execute<OutboxEntryRow[]>("all");
  }

  private qb() {
    return this.rows.qb();
  }

  /** Runs a conditional write; whether it changed exactly one row. */
  private async changed(query: { execute(mode: "run"): Promise<unknown> }): Promise<boolean> {
    return ((await query.execute("run")) as { affectedRows: number }).affectedRows === 1;
  }

  async dueIds(now: string): Promise<string[]> {
    const rows = await this.rows.list({ fields: ["id"], where: { status: "approved", dueAt: { $lte: now } }, orderBy: { dueAt: "asc" } });
    return rows.map((r) => r.id);
  }

  /** The earliest `dueAt` of a queued entry, or null when none is queued. */
  async nextDueAt(): Promise<string | null> {
    const [row] = await this.rows.list({ fields: ["dueAt"], where: { status: "approved" }, orderBy: { dueAt: "asc" }, limit: 1 });
    return row?.dueAt ?? null;
  }

  async get(id: string): Promise<OutboxEntryRow | undefined> {
    return (await this.rows.get(id)) ?? undefined;
  }

  /** Entries newest first, optionally of one approval or draft. */
  list(filter: { approvalId?: string; draftId?: string; status?: OutboxEntryRow["status"]; limit: number }): Promise<OutboxEntryRow[]> {
    const where: Record<string, string> = {};
    if (filter.approvalId) where.approvalId = filter.approvalId;
    if (filter.draftId) where.draftId = filter.draftId;
    if (filter.status) where.status = filter.status;
    return this.rows.list({ where, limit: filter.limit });
  }
}
