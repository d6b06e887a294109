import { defineStore, type Database, type EntityStore } from "@muster/plugin";
import { ContentDraft, type ContentDraftRow } from "../entities/content-draft.ts";
import { DRAFT_FIELDS, PUBLISHABLE, type DraftStatus } from "./draft-record.ts";

/** Most recently changed first; text columns only, so rows need no mapping. */
const drafts = defineStore(ContentDraft, { fields: DRAFT_FIELDS, orderBy: [{ updatedAt: "desc" }, { id: "asc" }], mapRows: false });

/** Columns a draft edit may set. */
export type DraftChanges = Partial<Pick<ContentDraftRow, "title" | "text" | "platforms" | "media" | "status" | "scheduledAt">>;

const EDITABLE = ["title", "text", "platforms", "media", "status", "scheduledAt"] as const;
/** Not locked (draft-record.ts `isLocked`), as SQL. */
const UNLOCKED = "status IN ('draft', 'rejected', 'failed') OR (status = 'review' AND approvalId IS NULL)";

/**
 * `publishing_drafts`. Reads and the insert over the store kit; the changes that depend on
 * the draft's current state (an edit of an unlocked draft, a manual transition, taking it
 * for a publish request) are each one conditional raw statement, run synchronously, so a
 * concurrent approval or second request cannot slip between the check and the write (the
 * lock condition spans several statuses and columns, and an edit's columns vary).
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
  edit(id: string, changes: DraftChanges, from: DraftStatus | null, now: string): boolean {
    const sets = EDITABLE.filter((k) => changes[k] !== undefined).map((k) => `${k} = @${k}`);
    const statement = `UPDATE publishing_drafts SET ${[...sets, "updatedAt = @now"].join(", ")}
      WHERE id = @id AND (${UNLOCKED})${from ? " AND status = @from" : ""}`;
    return this.db().sql.prepare(statement).run({ ...changes, id, now, ...(from ? { from } : {}) }).changes === 1;
  }

  /** Deletes an unlocked draft. */
  delete(id: string): boolean {
    return this.db().sql.prepare(`DELETE FROM publishing_drafts WHERE id = ? AND (${UNLOCKED})`).run(id).changes === 1;
  }

  /**
   * Takes the draft for a publish request: only from draft, review (no approval pending) or
   * failed; marks it `review` with `marker` in place of the approval id until the approval
   * exists. Returns the status it had, or null when it could not be taken.
   */
  takeForPublish(id: string, marker: string, now: string): { status: DraftStatus; approvalId: string | null } | null {
    const { sql } = this.db();
    return sql.transaction(() => {
      const before = sql.prepare("SELECT status, approvalId FROM publishing_drafts WHERE id = ?").get(id) as { status: DraftStatus; approvalId: string | null } | undefined;
      const placeholders = PUBLISHABLE.map((s) => `'${s}'`).join(", ");
      const taken = sql
        .prepare(
          `UPDATE publishing_drafts SET status = 'review', approvalId = @marker, updatedAt = @now
           WHERE id = @id AND status IN (${placeholders}) AND (approvalId IS NULL OR status = 'failed')`,
        )
        .run({ id, marker, now }).changes;
      return taken === 1 ? before! : null;
    })();
  }

  /** Replaces the marker with the approval's id, or (approval refused) restores what the draft had. */
  settleMarker(id: string, marker: string, outcome: { approvalId: string } | { restore: { status: DraftStatus; approvalId: string | null } }, now: string): void {
    const stmt =
      "approvalId" in outcome
        ? this.db().sql.prepare("UPDATE publishing_drafts SET approvalId = @approvalId, updatedAt = @now WHERE id = @id AND approvalId = @marker")
        : this.db().sql.prepare("UPDATE publishing_drafts SET status = @status, approvalId = @approvalId, updatedAt = @now WHERE id = @id AND approvalId = @marker");
    const values = "approvalId" in outcome ? { approvalId: outcome.approvalId } : outcome.restore;
    stmt.run({ id, marker, now, ...values });
  }

  /**
   * The approval the draft waits on ended without queuing anything: rejected or expired
   * (`rejected`, approval cleared) or its execution failed (`failed`, so it can be sent again).
   */
  endWaitFor(id: string, approvalId: string, outcome: "rejected" | "failed", now: string): boolean {
    return (
      this.db()
        .sql.prepare(
          `UPDATE publishing_drafts SET status = @outcome, approvalId = CASE WHEN @outcome = 'rejected' THEN NULL ELSE approvalId END, updatedAt = @now
           WHERE id = @id AND approvalId = @approvalId AND status = 'review'`,
        )
        .run({ id, approvalId, outcome, now }).changes === 1
    );
  }

  /** The outbox's view of a draft published by `approvalId`: status and results (system-owned, so unconditional on status). */
  setOutcome(id: string, approvalId: string, status: DraftStatus, results: string, scheduledAt: string | null | undefined, now: string): boolean {
    return (
      this.db()
        .sql.prepare(
          `UPDATE publishing_drafts SET status = @status, results = @results, updatedAt = @now${scheduledAt !== undefined ? ", scheduledAt = @scheduledAt" : ""}
           WHERE id = @id AND approvalId = @approvalId`,
        )
        .run({ id, approvalId, status, results, now, ...(scheduledAt !== undefined ? { scheduledAt } : {}) }).changes === 1
    );
  }
}
