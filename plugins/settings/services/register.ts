import { defineService, hostTokens, token, type PluginContext } from "@muster/plugin";
import { NOTIFICATIONS } from "../../notifications/tokens.ts";
import { SettingsService } from "./settings-service.ts";

export const SETTINGS = token<SettingsService>("settings.service");

export function registerSettingsServices(ctx: PluginContext): void {
  ctx.provide(
    defineService({
      token: SETTINGS,
      deps: { db: hostTokens.db, logger: hostTokens.logger },
      // Autopilot runs reaching done or failed are notified when the plugin is loaded.
      optionalDeps: { notifications: NOTIFICATIONS },
      create: ({ db, logger, notifications }) => new SettingsService({ db: () => db, logger, notifications }),
    }),
  );
}
