import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** One of Muster's own cron jobs (spec Cron job plus DESIGN §14.4's fields). */
export const CronJob = defineEntity({
  name: "CronJob",
  tableName: "crons_jobs",
  properties: {
    id: p.string().primary(),
    name: p.string(),
    cron: p.string(),
    agentId: p.string(),
    message: p.text(),
    model: p.string().nullable(),
    timezone: p.string(),
    enabled: p.boolean(),
    lastRun: p.string().nullable(),
    lastStatus: p.enum(["ok", "error", "skipped"]).nullable(),
    lastError: p.string().nullable(),
    /** The newest fire time claimed (ISO); a fire time is run only by the claim that moves it forward. */
    lastFireAt: p.string().nullable(),
    /** The next scheduled fire time (ISO), kept so a fire missed while Muster was down runs once at start-up. */
    nextFireAt: p.string().nullable(),
    createdAt: p.string(),
    updatedAt: p.string(),
  },
  checks: [{ name: "crons_jobs_enabled_check", expression: "enabled IN (0, 1)" }],
});

export type CronJobRow = EntityRow<typeof CronJob>;
