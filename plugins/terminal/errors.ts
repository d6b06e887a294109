import { defineErrors } from "@muster/plugin";

/** The terminal's error catalogue (docs/terminal.md). Messages never quote secret values. */
export const terminalErrors = defineErrors({
  TERMINAL_SHELL_SYNTAX: {
    status: 400,
    message: "Without the sandbox there is no shell, so {feature} cannot be used; run one program with plain arguments (quote literal characters)",
  },
  TERMINAL_COMMAND_INVALID: { status: 400, message: "The command cannot be parsed: {reason}" },
  TERMINAL_COMMAND_BLOCKED: { status: 403, message: "The command is blocked: {reason}" },
  TERMINAL_CWD_FORBIDDEN: { status: 403, message: "The working directory {cwd} resolves outside the home directory and the temporary directory" },
  TERMINAL_PATH_FORBIDDEN: {
    status: 403,
    message: "{arg} names a protected place (process environments, Muster's data directory or a credential store); without the sandbox these are refused",
  },
  TERMINAL_CWD_NOT_FOUND: { status: 400, message: "The working directory {cwd} does not exist or is not a directory" },
  TERMINAL_AGENT_FORBIDDEN: {
    status: 403,
    message: "Agents cannot run terminal commands (the request carries X-Agent-Id); set terminal.allowAgents in muster.config.json to allow them",
  },
  TERMINAL_SECRET_NOT_FOUND: { status: 404, message: "No secret named {name} in the vault (requested for {envVar})" },
  TERMINAL_ENV_VAR_PROTECTED: { status: 403, message: "{envVar} cannot be set from a secret: it changes what the command runs or loads" },
  TERMINAL_SANDBOX_UNAVAILABLE: {
    status: 503,
    message: "terminal.sandbox is \"bwrap\" but bubblewrap failed its trial run at start ({reason}); fix it or set terminal.sandbox to \"auto\"",
  },
});
