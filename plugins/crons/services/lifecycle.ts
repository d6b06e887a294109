import { defineHook, hostTokens } from "@muster/plugin";
import { CRON_PARTS } from "./service-tokens.ts";

const INTERRUPTED = "INTERRUPTED: Muster stopped while this run was in flight; it was not re-run";

/**
 * Start-up: runs a previous process left in flight are recorded `interrupted` (never re-run),
 * then every job's timer is rebuilt; a fire time missed while Muster was down runs once.
 */
export const startCrons = defineHook({
  deps: { parts: CRON_PARTS, logger: hostTokens.logger },
  async run({ parts: { store, runner, scheduler }, logger }, ctx) {
    const interrupted = await store.markInterrupted(new Date().toISOString(), INTERRUPTED);
    const started = performance.now();
    const jobs = await store.listJobs();
    await scheduler.rebuild(jobs);
    logger.info({ jobs: jobs.length, interrupted, rebuildMs: Math.round(performance.now() - started) }, "cron schedules rebuilt");
    ctx.lifecycle.onStop(() => {
      scheduler.stop();
      runner.stop();
    });
  },
});
