import { defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { NOTIFICATIONS } from "../tokens.ts";
import { NotificationService } from "./notification-service.ts";

/** Provides the notification service. */
export function registerNotificationServices(ctx: PluginContext): void {
  let service: NotificationService | undefined;
  ctx.provide(
    defineService({
      token: NOTIFICATIONS,
      deps: { db: hostTokens.db, events: hostTokens.events, redaction: hostTokens.redaction, logger: hostTokens.logger },
      create: ({ db, events, redaction, logger }) => (service = new NotificationService({ db: () => db, events, redaction, logger })),
    }),
  );
  // On PostgreSQL inserts are queued just after the call: shutdown waits for them (the database closes after).
  ctx.lifecycle.onStop(() => service?.settled());
}
