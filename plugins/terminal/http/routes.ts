import { defineRoutes, z, type PluginRouter } from "@muster/plugin";
import { TERMINAL, type TerminalRunner } from "../tokens.ts";
import { terminalBody, terminalResponse, terminalStatusResponse } from "./schemas.ts";

export const terminalRoutes = defineRoutes({
  deps: { terminal: TERMINAL },
  mount: (router, { terminal }) => mountTerminalRoutes(router, terminal),
});

function mountTerminalRoutes(router: PluginRouter, terminal: TerminalRunner): void {
  router.get(
    "/api/terminal",
    {
      summary: "Which terminal mode is active and why: bwrap (sandboxed), none (opt-in, allowlisted programs without a shell) or off (commands refused)",
      description: "Waits for the bubblewrap trial run started at boot. In `none` mode `programs` lists what may run. See docs/terminal.md.",
      query: z.strictObject({}),
      response: terminalStatusResponse,
    },
    async () => ({ ok: true, ...(await terminal.status()) }),
  );
  router.post(
    "/api/terminal",
    {
      summary: "Run one command (session token; agents only with terminal.allowAgents); sandboxed with bubblewrap, else off (503) unless terminal.sandbox is \"none\" (allowlisted programs, no shell)",
      description:
        "Blocked commands and working directories outside $HOME and the temp directory or inside a Muster installation or data directory: 403. " +
        "Without the sandbox: shell syntax 400 TERMINAL_SHELL_SYNTAX, programs off the allowlist 403 TERMINAL_COMMAND_BLOCKED, protected paths 403 TERMINAL_PATH_FORBIDDEN. " +
        "Output capped at 1 MiB (truncated: true, the command killed); at most 2 commands at once (429). See docs/terminal.md.",
      auth: "session",
      body: terminalBody,
      response: terminalResponse,
    },
    async ({ body, agentId, signal }) => ({ ok: true, ...(await terminal.run({ ...body, agentId, signal })) }),
  );
}
