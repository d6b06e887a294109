import { z, schemas } from "@muster/plugin";
import { GOAL_PRIORITIES, GOAL_STATUSES, RUN_FEEDBACK, RUN_STATUSES } from "../entities/autopilot.ts";

export const settingKeyParams = z.strictObject({ key: z.string().regex(/^[a-z0-9_.-]{1,100}$/, "must match ^[a-z0-9_.-]{1,100}$") });
/** Any JSON value (size checked by the service: 64 KiB, 413 SETTING_TOO_LARGE). */
export const putSettingBody = z.strictObject({ value: z.json() });
export const settingResponse = z.object({ ok: z.literal(true), key: z.string(), value: z.unknown(), updatedAt: z.string() });
export const settingsResponse = z.object({ ok: z.literal(true), settings: z.record(z.string(), z.unknown()) });
export const okResponse = z.object({ ok: z.literal(true) });

export const goalSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  priority: z.enum(GOAL_PRIORITIES),
  status: z.enum(GOAL_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const saveGoalBody = z.strictObject({
  id: schemas.id.optional(),
  title: z.string().trim().min(1).max(500),
  description: z.string().max(10_000).nullable().optional(),
  priority: z.enum(GOAL_PRIORITIES).optional(),
  status: z.enum(GOAL_STATUSES).optional(),
});
export const goalResponse = z.object({ ok: z.literal(true), goal: goalSchema });
export const goalsResponse = z.object({ ok: z.literal(true), goals: z.array(goalSchema) });

export const runSchema = z.object({
  id: z.string(),
  goalId: z.string().nullable(),
  agentId: z.string(),
  taskTitle: z.string().nullable(),
  taskDescription: z.string().nullable(),
  status: z.enum(RUN_STATUSES),
  result: z.string().nullable(),
  feedback: z.enum(RUN_FEEDBACK).nullable(),
  feedbackNote: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const saveRunBody = z.strictObject({
  id: schemas.id.optional(),
  goalId: schemas.id.nullable().optional(),
  agentId: schemas.id,
  taskTitle: z.string().max(500).nullable().optional(),
  taskDescription: z.string().max(10_000).nullable().optional(),
  status: z.enum(RUN_STATUSES).optional(),
  result: z.string().max(64 * 1024).nullable().optional(),
  feedback: z.enum(RUN_FEEDBACK).nullable().optional(),
  feedbackNote: z.string().max(10_000).nullable().optional(),
});
export const runResponse = z.object({ ok: z.literal(true), run: runSchema });
export const runsResponse = z.object({ ok: z.literal(true), runs: z.array(runSchema) });
export const runsQuery = z.strictObject({ limit: schemas.limit(50, 500) });
export const idQuery = z.strictObject({ id: schemas.id });
