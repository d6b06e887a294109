import { z, schemas } from "@muster/plugin";

export const cronJobSchema = z.object({
  id: z.string(),
  name: z.string(),
  cron: z.string(),
  agentId: z.string(),
  message: z.string(),
  model: z.string().nullable(),
  timezone: z.string(),
  enabled: z.boolean(),
  lastRun: z.string().nullable(),
  nextRun: z.string().nullable(),
  lastStatus: z.enum(["ok", "error", "skipped"]).nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const cronRunSchema = z.object({
  id: z.string(),
  jobId: z.string(),
  trigger: z.enum(["schedule", "manual"]),
  fireAt: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  status: z.enum(["running", "ok", "error", "skipped", "interrupted"]),
  output: z.string().nullable(),
  error: z.string().nullable(),
});

const name = z.string().trim().min(1).max(200);
/** The expression itself is checked by the service (400 CRON_INVALID_EXPRESSION with the reason). */
const cron = z.string().min(1).max(200);
const message = z.string().min(1).max(32 * 1024);

export const createCronBody = z.strictObject({
  name,
  agentId: schemas.id,
  cron,
  message,
  model: z.string().trim().min(1).max(200).nullable().optional(),
  /** IANA zone name; default UTC (checked by the service: 400 CRON_UNKNOWN_TIME_ZONE). */
  timezone: z.string().min(1).max(100).optional(),
});

/** `{ id, action }` or `{ id, name?, cron?, message? }`, never both. */
export const patchCronBody = z.union([
  z.strictObject({ id: schemas.id, action: z.enum(["enable", "disable", "run"]) }),
  z.strictObject({ id: schemas.id, name: name.optional(), cron: cron.optional(), message: message.optional() }),
]);

export const deleteCronQuery = z.strictObject({ id: schemas.id });
export const runsQuery = z.strictObject({ id: schemas.id.optional(), limit: schemas.limit(50, 500) });

export const jobResponse = z.object({ ok: z.literal(true), job: cronJobSchema });
export const runResponse = z.object({ ok: z.literal(true), job: cronJobSchema, run: cronRunSchema });
export const listResponse = z.object({ ok: z.literal(true), jobs: z.array(cronJobSchema) });
export const runsResponse = z.object({ ok: z.literal(true), runs: z.array(cronRunSchema) });
export const okResponse = z.object({ ok: z.literal(true) });
