import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PAGES } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
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
  optionalDependsOn: ["stream", "dashboard"],
  paths: ["/api/terminal"],
  config: terminalConfig,
  contributions: [
    contribute(CONSOLE_PAGES, {
      id: "terminal",
      title: "Terminal",
      group: "outside",
      order: 30,
      module: fileURLToPath(new URL("./console/terminal-page.ts", import.meta.url)),
      events: ["terminal.command.executed"],
    }),
    contribute(STREAM_EVENT_FAMILIES, { pattern: "terminal.command.executed", description: "A terminal command ran: exit code, duration, sandbox" }),
  ],
  register: registerTerminalServices,
  routes: terminalRoutes,
  onStart: startTerminal,
});

export default terminalPlugin;
