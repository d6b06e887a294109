import { defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { ACTIVITIES } from "../tokens.ts";
import { ActivityService } from "./activity-service.ts";

/** Provides the activity log. */
export function registerActivityServices(ctx: PluginContext): void {
  ctx.provide(
    defineService({
      token: ACTIVITIES,
      deps: { db: hostTokens.db, events: hostTokens.events, redaction: hostTokens.redaction, logger: hostTokens.logger },
      create: ({ db, events, redaction, logger }) => new ActivityService({ db: () => db, events, redaction, logger }),
    }),
  );
}
