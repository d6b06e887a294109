import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { CREW } from "../../agents/tokens.ts";
import { USAGE } from "../../usage/tokens.ts";
import type { CronsConfig } from "../config.ts";
import { CRONS } from "../tokens.ts";
import { CronRunner } from "./cron-runner.ts";
import { CronScheduler } from "./cron-scheduler.ts";
import { CronService } from "./cron-service.ts";
import { CronStore } from "./cron-store.ts";
import { CRON_PARTS } from "./service-tokens.ts";


export function registerCronServices(ctx: PluginContext<CronsConfig>): void {
  ctx.provide(
    defineService({
      token: CRON_PARTS,
      deps: { db: hostTokens.db, instances: hostTokens.instances, gateway: hostTokens.gateway, events: hostTokens.events, logger: hostTokens.logger, config: configToken<CronsConfig>() },
      // Without the usage plugin runs are neither priced nor held to a budget.
      optionalDeps: { usage: USAGE },
      create: ({ db, instances, gateway, events, logger, config, usage }) => {
        const now = () => Date.now() + config.clockOffsetMs;
        const store = new CronStore(() => db, () => instances.id);
        const runner = new CronRunner({ store, gateway, events, logger, usage, runTimeoutMs: config.runTimeoutMs, now });
        return { store, runner, scheduler: new CronScheduler({ store, runner, logger, now }) };
      },
    }),
  );
  ctx.provide(
    defineService({
      token: CRONS,
      deps: { parts: CRON_PARTS, config: configToken<CronsConfig>() },
      // Agent ids are checked by the crew capability; without the agents plugin any id is accepted.
      optionalDeps: { crew: CREW },
      create: ({ parts, config, crew }) => new CronService({ ...parts, crew, maxJobs: config.maxJobs, now: () => Date.now() + config.clockOffsetMs }),
    }),
  );
}
