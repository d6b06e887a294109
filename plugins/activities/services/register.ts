import { defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { ACTIVITIES } from "../tokens.ts";
import { ActivityService } from "./activity-service.ts";

/** Provides the activity log. */
export function registerActivityServices(ctx: PluginContext): void {
  let service: ActivityService | undefined;
  ctx.provide(
    defineService({
      token: ACTIVITIES,
      deps: { db: hostTokens.db, events: hostTokens.events, redaction: hostTokens.redaction, logger: hostTokens.logger },
      create: ({ db, events, redaction, logger }) => (service = new ActivityService({ db: () => db, events, redaction, logger })),
    }),
  );
  // On PostgreSQL inserts are queued just after the call: shutdown waits for them (the database closes after).
  ctx.lifecycle.onStop(() => service?.settled());
}
