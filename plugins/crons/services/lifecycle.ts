import { defineHook, hostTokens } from "@muster/plugin";
import { CRON_PARTS } from "./service-tokens.ts";

const INTERRUPTED = "INTERRUPTED: Muster stopped while this run was in flight; it was not re-run";

/**
 * Start-up: runs a previous process left in flight are recorded `interrupted` (never re-run),
 * then every job's timer is rebuilt; a fire time missed while Muster was down runs once.
 * In team mode only runs no live instance owns are interrupted, at start and then every
 * 2 s (`instances.everyWhileShared`) (an instance killed mid-run is noticed within seconds of its heartbeat
 * stopping); every instance keeps timers for every job (the sweep re-arms those other
 * instances created or changed), and a fire time's claim picks one.
 */
export const startCrons = defineHook({
  deps: { parts: CRON_PARTS, logger: hostTokens.logger, instances: hostTokens.instances },
  async run({ parts: { store, runner, scheduler }, logger, instances }, ctx) {
    const interrupted = await store.markInterrupted(new Date().toISOString(), INTERRUPTED, await instances.liveIds());
    const started = performance.now();
    const jobs = await store.listJobs();
    await scheduler.rebuild(jobs);
    logger.info({ jobs: jobs.length, interrupted, rebuildMs: Math.round(performance.now() - started) }, "cron schedules rebuilt");
    instances.everyWhileShared("cron sweep for dead instances", async () => {
      const count = await store.markInterrupted(new Date().toISOString(), INTERRUPTED, await instances.liveIds());
      if (count) logger.warn({ interrupted: count }, "cron runs of an instance that stopped answering were marked interrupted");
      // Jobs other instances created or changed since: this instance's timers follow them.
      await scheduler.sync(await store.listSchedules());
    });
    ctx.lifecycle.onStop(() => {
      scheduler.stop();
      runner.stop();
    });
  },
});
