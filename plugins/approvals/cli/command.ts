import type { PluginCommand } from "@muster/plugin";

const HELP = `Usage: muster approvals <list|show|approve|reject> ...

  approvals list [--all] [--json]                 pending approvals (--all: also the decided history)
  approvals show <id> [--json]                    one approval with its exact payload
  approvals approve <id> [--reason <text>] [--as <name>]
  approvals reject <id> --reason <text> [--as <name>]

Talks to the running server of this MUSTER_HOME with its session token (the human's
credential). A decision is made as the owner, or as --as <name> when that name is one of the
configured approvers; the server refuses anyone else (403) and a decided approval (409).
Approving a gated action runs it once. Exit codes: 0 done; 1 refused or failed (printed as
CODE: message); 2 usage error.`;

/** `muster approvals`: the human's approval inbox in a terminal; the implementation is imported only when the command runs. */
export const approvalsCommand: PluginCommand = {
  name: "approvals",
  usage: "approvals <sub-command>",
  summary: "the running server's approval inbox: list, show, approve, reject (as the owner)",
  help: HELP,
  async run(args, io) {
    const { runApprovals } = await import("./approvals-command.ts");
    return runApprovals(args, io);
  },
};
