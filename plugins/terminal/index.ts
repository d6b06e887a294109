import { definePlugin } from "@muster/plugin";
import { terminalConfig } from "./config.ts";
import { terminalRoutes } from "./http/routes.ts";
import { registerTerminalServices } from "./services/register.ts";
import { startTerminal } from "./services/lifecycle.ts";

/**
 * `POST /api/terminal`: one command per request, in a bubblewrap sandbox when this machine
 * can run one, else as a single program without a shell behind a blocklist (docs/terminal.md).
 */
export const terminalPlugin = definePlugin({
  id: "terminal",
  version: "1.0.0",
  host: "^1.0.0",
  // Every command is logged as an activity; injected secrets come from the vault and are masked with it.
  dependsOn: ["activities", "vault"],
  paths: ["/api/terminal"],
  config: terminalConfig,
  register: registerTerminalServices,
  routes: terminalRoutes,
  onStart: startTerminal,
});

export default terminalPlugin;
