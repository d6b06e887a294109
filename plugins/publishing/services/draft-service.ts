import { randomUUID } from "node:crypto";
import { clip, type ApprovalGate, type EventBus } from "@muster/plugin";
import type { ApprovalEventPayload } from "../../approvals/events.ts";
import { publishingErrors } from "../errors.ts";
import type { MediaItem } from "../platforms/platform.ts";
import { PUBLISH_KIND, type ContentDrafts, type Platforms, type PublishRequested } from "../tokens.ts";
import { isLocked, MANUAL_TRANSITIONS, toDraftRecord, type ContentDraftRecord, type DraftStatus } from "./draft-record.ts";
import type { DraftStore } from "./draft-store.ts";
import type { PublishPayload } from "./publish-payload.ts";

export interface DraftInput {
  title?: string;
  text: string;
  platforms?: string[];
  media?: MediaItem[];
  scheduledAt?: string | null;
}

export interface DraftPatch extends Partial<DraftInput> {
  status?: DraftStatus;
}

/** The task reference a draft's publish approval carries, so its rejection finds the draft. */
const DRAFT_REF = "content-draft:";
const TITLE_FROM_TEXT = 80;

export class DraftService implements ContentDrafts {
  private readonly deps: { store: DraftStore; platforms: Platforms; gate: ApprovalGate; events: EventBus };
  constructor(deps: { store: DraftStore; platforms: Platforms; gate: ApprovalGate; events: EventBus }) {
    this.deps = deps;
  }

  private now(): string {
    return new Date().toISOString();
  }

  async create(input: DraftInput): Promise<ContentDraftRecord> {
    this.knownPlatforms(input.platforms ?? []);
    const now = this.now();
    const row = {
      id: randomUUID(),
      title: input.title ?? clip(input.text.split("\n")[0]!, TITLE_FROM_TEXT),
      text: input.text,
      platforms: JSON.stringify(input.platforms ?? []),
      media: JSON.stringify(input.media ?? []),
      status: "draft" as const,
      scheduledAt: input.scheduledAt ?? null,
      results: "[]",
      approvalId: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.deps.store.insert(row);
    const record = toDraftRecord(row);
    this.deps.events.publish("publishing.draft.created", record, { public: true });
    return record;
  }

  async get(id: string): Promise<ContentDraftRecord> {
    const row = await this.deps.store.get(id);
    if (!row) throw publishingErrors.CONTENT_DRAFT_NOT_FOUND({ id });
    return toDraftRecord(row);
  }

  async list(filter: { status?: DraftStatus; limit: number }): Promise<ContentDraftRecord[]> {
    return (await this.deps.store.list(filter)).map(toDraftRecord);
  }

  /** Edits an unlocked draft; a status change must be one of {@link MANUAL_TRANSITIONS} (409 otherwise). */
  async update(id: string, patch: DraftPatch): Promise<ContentDraftRecord> {
    const row = await this.deps.store.get(id);
    if (!row) throw publishingErrors.CONTENT_DRAFT_NOT_FOUND({ id });
    this.knownPlatforms(patch.platforms ?? []);
    const moving = patch.status !== undefined && patch.status !== row.status;
    if (moving && !MANUAL_TRANSITIONS[row.status].includes(patch.status!)) {
      throw publishingErrors.CONTENT_DRAFT_INVALID_TRANSITION({ from: row.status, to: patch.status!, allowed: MANUAL_TRANSITIONS[row.status].join(", ") || "none (set by the publish approval)" });
    }
    if (isLocked(row)) throw publishingErrors.CONTENT_DRAFT_LOCKED({ id, status: row.status });
    const changes = {
      title: patch.title,
      text: patch.text,
      platforms: patch.platforms && JSON.stringify(patch.platforms),
      media: patch.media && JSON.stringify(patch.media),
      status: moving ? patch.status : undefined,
      scheduledAt: patch.scheduledAt,
    };
    if (!(await this.deps.store.edit(id, changes, moving ? row.status : null, this.now()))) {
      // Changed meanwhile (an approval arrived, another edit moved it): refuse rather than overwrite.
      const current = await this.get(id);
      throw publishingErrors.CONTENT_DRAFT_LOCKED({ id, status: current.status });
    }
    const record = await this.get(id);
    this.deps.events.publish("publishing.draft.updated", record, { public: true });
    return record;
  }

  async delete(id: string): Promise<void> {
    const row = await this.deps.store.get(id);
    if (!row) throw publishingErrors.CONTENT_DRAFT_NOT_FOUND({ id });
    if (isLocked(row) || !(await this.deps.store.delete(id))) throw publishingErrors.CONTENT_DRAFT_LOCKED({ id, status: row.status });
    this.deps.events.publish("publishing.draft.deleted", { id }, { public: true });
  }

  /**
   * Everything is checked before an approval exists (platforms known and configured, content
   * within each platform's limits); then the draft is taken (one approval at a time) and the
   * approval requested with the exact text, media and platforms.
   */
  async requestPublish(input: { draftId: string; platforms?: string[]; scheduledAt?: string; requestedBy: string }): Promise<PublishRequested> {
    const draft = await this.get(input.draftId);
    const platforms = [...new Set(input.platforms ?? draft.platforms)];
    if (platforms.length === 0) throw publishingErrors.CONTENT_NO_PLATFORMS();
    this.deps.platforms.check(platforms, draft);
    if (isLocked(draft)) throw publishingErrors.CONTENT_PUBLISH_IN_PROGRESS({ id: draft.id, status: draft.status });
    const marker = `requesting:${randomUUID()}`;
    const before = await this.deps.store.takeForPublish(draft.id, marker, this.now());
    if (!before) throw publishingErrors.CONTENT_PUBLISH_IN_PROGRESS({ id: draft.id, status: (await this.get(draft.id)).status });
    // The request's time wins; else the draft's own, while it still lies ahead.
    const scheduledAt = input.scheduledAt ?? (draft.scheduledAt !== null && draft.scheduledAt > this.now() ? draft.scheduledAt : null);
    const payload: PublishPayload = { draftId: draft.id, title: draft.title, text: draft.text, media: draft.media, platforms, scheduledAt };
    let requested;
    try {
      requested = await this.deps.gate.request(PUBLISH_KIND, payload, {
        requestedBy: input.requestedBy,
        title: `Publish "${clip(draft.title, 200)}" to ${platforms.join(", ")}`,
        taskId: `${DRAFT_REF}${draft.id}`,
        context: scheduledAt ? `Scheduled for ${scheduledAt}` : undefined,
      });
    } catch (error) {
      await this.deps.store.settleMarker(draft.id, marker, { restore: before }, this.now());
      throw error;
    }
    await this.deps.store.settleMarker(draft.id, marker, { approvalId: requested.approvalId }, this.now());
    this.deps.events.publish("publishing.draft.updated", await this.get(draft.id), { public: true });
    return requested;
  }

  /** A rejected or expired publish approval sends its draft to `rejected`; one whose execution failed, to `failed`. */
  async approvalEnded(approval: ApprovalEventPayload, outcome: "rejected" | "failed"): Promise<void> {
    if (approval.command !== PUBLISH_KIND || !approval.taskId.startsWith(DRAFT_REF)) return;
    const draftId = approval.taskId.slice(DRAFT_REF.length);
    if (await this.deps.store.endWaitFor(draftId, approval.id, outcome, this.now())) {
      this.deps.events.publish("publishing.draft.updated", await this.get(draftId), { public: true });
    }
  }

  private knownPlatforms(ids: string[]): void {
    for (const id of ids) if (!this.deps.platforms.get(id)) throw publishingErrors.PUBLISH_UNKNOWN_PLATFORM({ platform: id });
  }
}
