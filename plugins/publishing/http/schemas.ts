import { schemas, z } from "@muster/plugin";
import { DRAFT_STATUSES } from "../entities/content-draft.ts";
import { OUTBOX_STATUSES } from "../entities/outbox-entry.ts";

/** http(s) only: `javascript:`, `data:`, `file:` and the like are refused. */
const webUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.hostname }).max(2048);
const platformId = z.string().min(1).max(32).regex(/^[a-z][a-z0-9-]*$/, "must be a platform id (GET /api/content/platforms)");
const platformList = z.array(platformId).max(10);
const media = z.array(z.strictObject({ url: webUrl })).max(10);
const draftText = z.string().min(1).max(100_000);

export const networkStatusResponse = z.object({
  ok: z.literal(true),
  connected: z.boolean(),
  profile: z.object({ name: z.string(), email: z.string(), sub: z.string() }).nullable(),
  reason: z.string().optional(),
});
export const networkPostBody = z.strictObject({ text: z.string().min(1).max(3000), imageUrl: webUrl.optional() });

export const draftSchema = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  platforms: z.array(z.string()),
  media: z.array(z.object({ url: z.string() })),
  status: z.enum(DRAFT_STATUSES),
  scheduledAt: z.string().nullable(),
  results: z.array(
    z.object({ platform: z.string(), outboxId: z.string(), status: z.enum(OUTBOX_STATUSES), postId: z.string().nullable(), postUrl: z.string().nullable(), error: z.string().nullable() }),
  ),
  approvalId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const draftResponse = z.object({ ok: z.literal(true), draft: draftSchema });
export const draftListResponse = z.object({ ok: z.literal(true), drafts: z.array(draftSchema) });
export const draftParams = z.strictObject({ id: schemas.id });
export const draftListQuery = z.strictObject({ status: z.enum(DRAFT_STATUSES).optional(), limit: schemas.limit(50, 200) });
export const createDraftBody = z.strictObject({
  title: z.string().min(1).max(300).optional(),
  text: draftText,
  platforms: platformList.optional(),
  media: media.optional(),
  scheduledAt: schemas.timestamp.nullable().optional(),
});
export const updateDraftBody = z.strictObject({
  title: z.string().min(1).max(300).optional(),
  text: draftText.optional(),
  platforms: platformList.optional(),
  media: media.optional(),
  scheduledAt: schemas.timestamp.nullable().optional(),
  status: z.enum(DRAFT_STATUSES).optional(),
});

export const publishBody = z.strictObject({
  draftId: schemas.id,
  platforms: platformList.min(1).optional(),
  /** Must lie in the future (at most a year ahead). */
  scheduledAt: schemas.timestamp.optional(),
});

export const platformsResponse = z.object({
  ok: z.literal(true),
  platforms: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      configured: z.boolean(),
      secret: z.string(),
      limits: z.object({ maxLength: z.number(), maxHashtags: z.number().nullable(), maxMedia: z.number(), mediaTypes: z.array(z.string()) }),
    }),
  ),
});

const outboxEntrySchema = z.object({
  id: z.string(),
  approvalId: z.string(),
  draftId: z.string().nullable(),
  platform: z.string(),
  title: z.string(),
  text: z.string(),
  media: z.array(z.object({ url: z.string() })),
  status: z.enum(OUTBOX_STATUSES),
  dueAt: z.string(),
  attempts: z.number(),
  postId: z.string().nullable(),
  postUrl: z.string().nullable(),
  error: z.string().nullable(),
  decidedBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const outboxQuery = z.strictObject({
  approvalId: schemas.id.optional(),
  draftId: schemas.id.optional(),
  status: z.enum(OUTBOX_STATUSES).optional(),
  limit: schemas.limit(50, 500),
});
export const outboxResponse = z.object({ ok: z.literal(true), entries: z.array(outboxEntrySchema) });
