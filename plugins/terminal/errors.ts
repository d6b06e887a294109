import { defineErrors } from "@muster/plugin";

/** The terminal's error catalogue (docs/terminal.md). Messages never quote secret values. */
export const terminalErrors = defineErrors("terminal", {
  TERMINAL_SHELL_SYNTAX: {
    status: 400,
    message: "Without the sandbox there is no shell, so {feature} cannot be used; run one program with plain arguments (quote literal characters)",
  },
  TERMINAL_COMMAND_INVALID: { status: 400, message: "The command cannot be parsed: {reason}" },
  TERMINAL_COMMAND_BLOCKED: { status: 403, message: "The command is blocked: {reason}" },
  TERMINAL_CWD_FORBIDDEN: { status: 403, message: "The working directory {cwd} is not allowed: {reason}" },
  TERMINAL_PATH_FORBIDDEN: { status: 403, message: "{arg} is refused without the sandbox: {reason}" },
  TERMINAL_CWD_NOT_FOUND: { status: 400, message: "The working directory {cwd} does not exist or is not a directory" },
  TERMINAL_AGENT_FORBIDDEN: {
    status: 403,
    message: "Agents cannot run terminal commands (the request carries X-Agent-Id); set terminal.allowAgents in muster.config.json to allow them",
  },
  TERMINAL_SECRET_NOT_FOUND: { status: 404, message: "No secret named {name} in the vault (requested for {envVar})" },
  TERMINAL_ENV_VAR_PROTECTED: { status: 403, message: "{envVar} cannot be set from a secret: it changes what the command runs or loads" },
  TERMINAL_SANDBOX_UNAVAILABLE: {
    status: 503,
    message:
      "Terminal commands are off: bubblewrap cannot run here ({reason}). Install it (apt-get install bubblewrap) and restart Muster, or opt in to the unsandboxed mode, which runs only an allowlist of programs, by setting terminal.sandbox to \"none\" in muster.config.json (docs/terminal.md)",
  },
});
