import { defineEntity, p, type EntityRow } from "@muster/plugin";

export const CRON_RUN_STATUSES = ["running", "ok", "error", "skipped", "interrupted"] as const;

/** One run of a cron job: by schedule (`fireAt` set) or by `PATCH action: run`. */
export const CronRun = defineEntity({
  name: "CronRun",
  tableName: "crons_runs",
  properties: {
    id: p.string().primary(),
    jobId: p.string(),
    trigger: p.enum(["schedule", "manual"]),
    fireAt: p.string().nullable(),
    startedAt: p.string(),
    finishedAt: p.string().nullable(),
    status: p.enum(CRON_RUN_STATUSES),
    output: p.text().nullable(),
    error: p.string().nullable(),
    /** The instance (`hostTokens.instances`) that runs it; null for runs recorded before team mode. */
    owner: p.string().nullable(),
  },
  indexes: [
    { name: "crons_runs_job", properties: ["jobId", "startedAt"] },
    { name: "crons_runs_status", properties: ["status"] },
  ],
});

export type CronRunRow = EntityRow<typeof CronRun>;
