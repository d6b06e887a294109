import { z, schemas } from "@muster/plugin";

const text = (max: number) => z.string().max(max);

export const activitySchema = z.object({
  id: z.string(),
  agentId: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  details: z.string().nullable(),
  timestamp: z.string(),
});

export const createActivityBody = z.strictObject({
  agentId: text(128).min(1),
  action: text(128).min(1),
  target: text(1000).nullable().optional(),
  details: text(10_000).nullable().optional(),
});

export const listActivitiesQuery = z.strictObject({
  limit: schemas.limit(100, 1000),
  agentId: z.string().min(1).max(128).optional(),
  action: z.string().min(1).max(128).optional(),
  since: schemas.timestamp.optional(),
});
