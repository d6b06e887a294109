import { defineStore, type Database, type EntityStore } from "@muster/plugin";
import { OutboxEntry, type OutboxEntryRow } from "../entities/outbox-entry.ts";
import { OUTBOX_FIELDS } from "./outbox-record.ts";

export type NewOutboxRow = Omit<OutboxEntryRow, "status" | "attempts" | "postId" | "postUrl" | "error" | "updatedAt">;
export type Settled = { status: "published" | "failed" | "unknown"; postId: string | null; postUrl: string | null; error: string | null };

/** Newest first; text and number columns only, so rows need no mapping. */
const outbox = defineStore(OutboxEntry, { fields: OUTBOX_FIELDS, orderBy: [{ createdAt: "desc" }, { platform: "asc" }], mapRows: false });

const INTERRUPTED = "Muster stopped while this post was being sent; the platform may or may not have it, so it was not sent again";

/**
 * `publishing_outbox`: reads over the store kit. Every state change is one conditional raw
 * SQL statement on the shared connection (run synchronously, so nothing interleaves): an entry is claimed only from
 * `approved` and only when due, and settled or re-queued only from `publishing`, so two
 * runners can never both send one entry, and a settled entry never changes again.
 */
export class OutboxStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof OutboxEntry>;
  constructor(db: () => Database) {
    this.db = db;
    this.rows = outbox.on(db);
  }

  /**
   * Queues one approval's entries in one transaction. `(approvalId, platform)` is unique and
   * conflicts are ignored, so executing the same approval again queues nothing new.
   * Returns how many were new.
   */
  enqueue(rows: NewOutboxRow[], now: string): number {
    const { sql } = this.db();
    const insert = sql.prepare(
      `INSERT INTO publishing_outbox (id, approvalId, draftId, platform, title, text, media, status, dueAt, attempts, decidedBy, createdAt, updatedAt)
       VALUES (@id, @approvalId, @draftId, @platform, @title, @text, @media, 'approved', @dueAt, 0, @decidedBy, @createdAt, @now)
       ON CONFLICT (approvalId, platform) DO NOTHING`,
    );
    return sql.transaction(() => rows.reduce((added, row) => added + insert.run({ ...row, now }).changes, 0))();
  }

  /** Takes a due `approved` entry for sending; true only for the one caller that moved it to `publishing`. */
  claim(id: string, now: string): boolean {
    return (
      this.db()
        .sql.prepare("UPDATE publishing_outbox SET status = 'publishing', attempts = attempts + 1, updatedAt = @now WHERE id = @id AND status = 'approved' AND dueAt <= @now")
        .run({ id, now }).changes === 1
    );
  }

  /** Records the final outcome of a send; only a `publishing` entry settles, once. */
  settle(id: string, outcome: Settled, now: string): boolean {
    return (
      this.db()
        .sql.prepare(
          "UPDATE publishing_outbox SET status = @status, postId = @postId, postUrl = @postUrl, error = @error, updatedAt = @now WHERE id = @id AND status = 'publishing'",
        )
        .run({ id, ...outcome, now }).changes === 1
    );
  }

  /** Puts a `publishing` entry back to `approved`, due at `dueAt` (a 429/5xx retry). */
  requeue(id: string, dueAt: string, error: string, now: string): boolean {
    return (
      this.db()
        .sql.prepare("UPDATE publishing_outbox SET status = 'approved', dueAt = @dueAt, error = @error, updatedAt = @now WHERE id = @id AND status = 'publishing'")
        .run({ id, dueAt, error, now }).changes === 1
    );
  }

  /** At start-up: entries a previous process left `publishing` become `unknown`, never re-sent. */
  markInterrupted(now: string): OutboxEntryRow[] {
    return this.db()
      .sql.prepare(`UPDATE publishing_outbox SET status = 'unknown', error = @error, updatedAt = @now WHERE status = 'publishing' RETURNING ${OUTBOX_FIELDS.join(", ")}`)
      .all({ now, error: INTERRUPTED }) as OutboxEntryRow[];
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
