import type { ContentDraftRecord } from "./services/draft-record.ts";
import type { OutboxEntryRecord } from "./services/outbox-record.ts";

/** Events the publishing plugin publishes (all public: forwarded to SSE clients; no secrets in them). */
export interface PublishingEvents {
  "publishing.draft.created": ContentDraftRecord;
  "publishing.draft.updated": ContentDraftRecord;
  "publishing.draft.deleted": { id: string };
  /** An entry was queued (approved) or re-queued for a retry. */
  "publishing.outbox.queued": OutboxEntryRecord;
  "publishing.outbox.published": OutboxEntryRecord;
  "publishing.outbox.failed": OutboxEntryRecord;
  /** The platform may or may not have the post (a timeout, or a restart mid-request); never re-sent. */
  "publishing.outbox.unknown": OutboxEntryRecord;
}

declare module "@muster/plugin" {
  interface MusterEvents extends PublishingEvents {}
}
