import { token } from "@muster/plugin";
import type { ApprovalEventPayload } from "../approvals/events.ts";
import type { ContentDraftRecord, DraftStatus, PublishResult } from "./services/draft-record.ts";
import type { OutboxEntryRecord, OutboxStatus } from "./services/outbox-record.ts";
import type { PlatformInfo } from "./services/platform-registry.ts";
import type { PlatformAdapter, PostContent, SecretSource } from "./platforms/platform.ts";
import type { PublishPayload } from "./services/publish-payload.ts";
import type { DraftInput, DraftPatch } from "./services/draft-service.ts";
import type { NetworkStatus } from "./services/professional-network.ts";

export type { ContentDraftRecord, DraftInput, DraftPatch, DraftStatus, NetworkStatus, OutboxEntryRecord, OutboxStatus, PlatformInfo, PublishPayload, PublishResult };

/** What `POST /api/content/publish` and `POST /api/professional-network` answer: the pending approval. */
export interface PublishRequested {
  approvalId: string;
  status: "pending";
}

/** Content drafts and their publish requests. */
export interface ContentDrafts {
  create(input: DraftInput): Promise<ContentDraftRecord>;
  get(id: string): Promise<ContentDraftRecord>;
  list(filter: { status?: DraftStatus; limit: number }): Promise<ContentDraftRecord[]>;
  update(id: string, patch: DraftPatch): Promise<ContentDraftRecord>;
  delete(id: string): Promise<void>;
  /** Checks the platforms (configured, limits) and asks for the `publishing.publish` approval. */
  requestPublish(input: { draftId: string; platforms?: string[]; scheduledAt?: string; requestedBy: string }): Promise<PublishRequested>;
  /** A rejected or expired publish approval sends its draft to `rejected`; one whose execution failed, to `failed`. */
  approvalEnded(approval: ApprovalEventPayload, outcome: "rejected" | "failed"): Promise<void>;
}

/** The outbox: approved publishes, one entry per platform, and the scheduler that sends them. */
export interface Outbox {
  /** The gated action's executor: queues the approval's entries (idempotent per approval). */
  enqueueApproved(payload: PublishPayload, approval: { approvalId: string; decidedBy: string }): Promise<OutboxEntryRecord[]>;
  list(filter: { approvalId?: string; draftId?: string; status?: OutboxStatus; limit: number }): Promise<OutboxEntryRecord[]>;
  /** Start-up: interrupted sends become `unknown`, due entries run, future ones are armed. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The configured publishing platforms. */
export interface Platforms {
  list(): PlatformInfo[];
  get(id: string): PlatformAdapter | undefined;
  /** Unknown platform → 400, missing credential → 409 `PUBLISH_NOT_CONFIGURED`, content over a limit → 400 `CONTENT_OVER_LIMIT`. */
  check(platforms: string[], content: Pick<PostContent, "text" | "media">): void;
  /** Reads a credential from the vault (never log or return it). */
  readonly secrets: SecretSource;
}

/** The professional network connection (`/api/professional-network`). */
export interface ProfessionalNetwork {
  status(): Promise<NetworkStatus>;
  requestPost(input: { text: string; imageUrl?: string; requestedBy: string }): Promise<PublishRequested>;
}

export const CONTENT_DRAFTS = token<ContentDrafts>("publishing.drafts");
export const OUTBOX = token<Outbox>("publishing.outbox");
export const PLATFORMS = token<Platforms>("publishing.platforms");
export const PROFESSIONAL_NETWORK = token<ProfessionalNetwork>("publishing.professionalNetwork");
/** The gated action kind a publish approval carries. */
export const PUBLISH_KIND = "publishing.publish";
