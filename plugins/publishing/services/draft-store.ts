import { atomically, defineStore, type Database, type EntityStore } from "@muster/plugin";
import { ContentDraft, type ContentDraftRow } from "../entities/content-draft.ts";
import { DRAFT_FIELDS, PUBLISHABLE, type DraftStatus } from "./draft-record.ts";

/** Most recently changed first; text columns only, so rows need no mapping. */
const drafts = defineStore(ContentDraft, { fields: DRAFT_FIELDS, orderBy: [{ updatedAt: "desc" }, { id: "asc" }], mapRows: false });

/** Columns a draft edit may set. */
export type DraftChanges = Partial<Pick<ContentDraftRow, "title" | "text" | "platforms" | "media" | "status" | "scheduledAt">>;

/** Not locked (draft-record.ts `isLocked`), as a condition of the kit. */
const UNLOCKED = { $or: [{ status: { $in: ["draft", "rejected", "failed"] as DraftStatus[] } }, { status: "review" as const, approvalId: null }] };

// The statements of the publish request's take, in SQL both engines read (quoted camelCase names, `?`).
const BEFORE = `SELECT status, "approvalId" FROM publishing_drafts WHERE id = ?`;
const TAKE = `UPDATE publishing_drafts SET status = 'review', "approvalId" = ?, "updatedAt" = ?
  WHERE id = ? AND status IN (${PUBLISHABLE.map((s) => `'${s}'`).join(", ")}) AND ("approvalId" IS NULL OR status = 'failed')`;

/**
 * `publishing_drafts`, on SQLite and PostgreSQL, over the store kit. The changes that depend
 * on the draft's current state (an edit of an unlocked draft, a manual transition, a marker's
 * settling, the outcome of its approval) are each one conditional update through the query
 * builder, so a concurrent approval or second request cannot slip between the check and the
 * write (the lock condition spans several statuses and columns, and an edit's columns vary);
 * taking a draft for a publish request reads what it had and takes it in one atomic step.
 */
export class DraftStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof ContentDraft>;
  constructor(db: () => Database) {
    this.db = db;
    this.rows = drafts.on(db);
  }

  insert(row: ContentDraftRow): Promise<void> {
    return this.rows.insert(row);
  }

  async get(id: string): Promise<ContentDraftRow | undefined> {
    return (await this.rows.get(id)) ?? undefined;
  }

  list(filter: { status?: DraftStatus; limit: number }): Promise<ContentDraftRow[]> {
    return this.rows.list({ where: filter.status ? { status: filter.status } : undefined, limit: filter.limit });
  }

  /**
   * Applies `changes` if the draft is unlocked and (when the status changes) still in
   * `from`. Returns whether it did.
   */
  async edit(id: string, changes: DraftChanges, from: DraftStatus | null, now: string): Promise<boolean> {
    const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    return this.changed(this.qb().update({ ...set, updatedAt: now }).where({ id, $and: [UNLOCKED, ...(from ? [{ status: from }] : [])] }));
  }

  /** Deletes an unlocked draft. */
  delete(id: string): Promise<boolean> {
    return this.changed(this.qb().delete().where({ id, ...UNLOCKED }));
  }

  /**
   * Takes the draft for a publish request: only from draft, review (no approval pending) or
   * failed; marks it `review` with `marker` in place of the approval id until the approval
   * exists. Returns the status it had, or null when it could not be taken. One atomic step;
   * on PostgreSQL the read locks the row (`FOR UPDATE`), so what it returns is what the take
   * replaced, not an older state another transaction changed in between.
   */
  takeForPublish(id: string, marker: string, now: string): Promise<{ status: DraftStatus; approvalId: string | null } | null> {
    const lock = this.db().engine === "postgresql" ? " FOR UPDATE" : "";
    return atomically(this.db(), function* (tx) {
      const before = yield* tx.get<{ status: DraftStatus; approvalId: string | null }>(BEFORE + lock, [id]);
      return (yield* tx.run(TAKE, [marker, now, id])).changes === 1 ? before! : null;
    });
  }

  /** Replaces the marker with the approval's id, or (approval refused) restores what the draft had. */
  async settleMarker(id: string, marker: string, outcome: { approvalId: string } | { restore: { status: DraftStatus; approvalId: string | null } }, now: string): Promise<void> {
    const set = "approvalId" in outcome ? { approvalId: outcome.approvalId } : { status: outcome.restore.status, approvalId: outcome.restore.approvalId };
    await this.qb().update({ ...set, updatedAt: now }).where({ id, approvalId: marker }).execute("run");
  }

  /**
   * The approval the draft waits on ended without queuing anything: rejected or expired
   * (`rejected`, approval cleared) or its execution failed (`failed`, so it can be sent again).
   */
  endWaitFor(id: string, approvalId: string, outcome: "rejected" | "failed", now: string): Promise<boolean> {
    const set = { status: outcome, updatedAt: now, ...(outcome === "rejected" ? { approvalId: null } : {}) };
    return this.changed(this.qb().update(set).where({ id, approvalId, status: "review" }));
  }

  /** The outbox's view of a draft published by `approvalId`: status and results (system-owned, so unconditional on status). */
  setOutcome(id: string, approvalId: string, status: DraftStatus, results: string, scheduledAt: string | null | undefined, now: string): Promise<boolean> {
    const set = { status, results, updatedAt: now, ...(scheduledAt !== undefined ? { scheduledAt } : {}) };
    return this.changed(this.qb().update(set).where({ id, approvalId }));
  }

  private qb() {
    return this.rows.qb();
  }

  /** Runs a conditional write; whether it changed exactly one row. */
  private async changed(query: { execute(mode: "run"): Promise<unknown> }): Promise<boolean> {
    return ((await query.execute("run")) as { affectedRows: number }).affectedRows === 1;
  }
}
