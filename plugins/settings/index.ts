import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PAGES } from "../dashboard/tokens.ts";
import { AutopilotGoal, AutopilotRun } from "./entities/autopilot.ts";
import { Setting } from "./entities/setting.ts";
import { migrations } from "./migrations.ts";
import { settingsRoutes } from "./http/routes.ts";
import { registerSettingsServices } from "./services/register.ts";

/** Key-value settings (secrets refused: they belong in the vault) and autopilot goal and run records (DESIGN §14.7). */
export const settingsPlugin = definePlugin({
  id: "settings",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["notifications", "dashboard"],
  paths: ["/api/settings", "/api/autopilot"],
  entities: [Setting, AutopilotGoal, AutopilotRun],
  migrations,
  contributions: [
    contribute(CONSOLE_PAGES, {
      id: "settings",
      title: "Settings",
      group: "settings",
      order: 10,
      module: fileURLToPath(new URL("./console/settings-page.ts", import.meta.url)),
      events: ["notifications.notification.*", "agents.*"],
    }),
  ],
  register: registerSettingsServices,
  routes: settingsRoutes,
});

export default settingsPlugin;
