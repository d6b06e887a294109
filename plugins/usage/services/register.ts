import { configToken, defineService, hostTokens, token, type PluginContext } from "@muster/plugin";
import { NOTIFICATIONS } from "../../notifications/tokens.ts";
import type { UsageConfig } from "../config.ts";
import { USAGE } from "../tokens.ts";
import { UsageService } from "./usage-service.ts";
import { UsageStore } from "./usage-store.ts";

/** The concrete service, for this plugin's routes (summary, budgets); other plugins get {@link USAGE}. */
export const USAGE_SERVICE = token<UsageService>("usage.service");

export function registerUsageServices(ctx: PluginContext<UsageConfig>): void {
  ctx.provide(
    defineService({
      token: USAGE_SERVICE,
      deps: { db: hostTokens.db, events: hostTokens.events, logger: hostTokens.logger, config: configToken<UsageConfig>(), instances: hostTokens.instances },
      // Budget alerts are also stored as notifications when the plugin is loaded; the event is always published.
      optionalDeps: { notifications: NOTIFICATIONS },
      create: ({ db, instances, ...deps }) => new UsageService({ ...deps, shared: instances.shared, store: new UsageStore(() => db) }),
    }),
  );
  ctx.provide(defineService({ token: USAGE, deps: { service: USAGE_SERVICE }, create: ({ service }) => service }));
}
