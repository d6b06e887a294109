// `muster approvals`: the human's approval inbox in a terminal. It talks to the running
// server of this MUSTER_HOME with the session token (the human's credential), so deciding
// here is deciding as the owner (or, with --as, as a configured approver); the server
// applies every rule of the gate (DESIGN §8) and its refusals are printed by code.
import { parseCommandArgs, UsageError, type CommandIo } from "@muster/plugin";
import type { ApprovalList, ApprovalRecord } from "../tokens.ts";
import { printable } from "./terminal-text.ts";

type Summary = ApprovalList["pending"][number];

const PAGE = 500;

/** Exit 0: done (usage mistakes and refusals are thrown, and the CLI exits 2 or 1). */
const EXIT_OK = 0;

/** Runs `muster approvals <args>`; a usage mistake or a refusal is thrown, for the CLI to report. */
export async function runApprovals([sub, ...args]: string[], io: Pick<CommandIo, "server" | "stdout">): Promise<number> {
  switch (sub) {
    case "list": {
      const { values } = parseCommandArgs(args, { all: { type: "boolean" }, json: { type: "boolean" } }, { min: 0, max: 0 });
      const list = await io.server().request<ApprovalList>("GET", "/api/approvals", { query: { pendingLimit: PAGE, limit: values.all ? PAGE : 1 } });
      const shown = values.all ? list : { pending: list.pending, pendingTotal: list.pendingTotal };
      if (values.json) io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
      else io.stdout.write(renderList(list, Boolean(values.all)));
      return EXIT_OK;
    }
    case "show": {
      const { values, positionals } = parseCommandArgs(args, { json: { type: "boolean" } }, { min: 1, max: 1 });
      const { approval } = await io.server().request<{ approval: ApprovalRecord }>("GET", approvalPath(positionals[0]!));
      io.stdout.write(values.json ? `${JSON.stringify(approval, null, 2)}\n` : renderApproval(approval));
      return EXIT_OK;
    }
    case "approve":
    case "reject": {
      const { values, positionals } = parseCommandArgs(args, { reason: { type: "string" }, as: { type: "string" } }, { min: 1, max: 1 });
      if (sub === "reject" && !values.reason?.trim()) throw new UsageError("reject needs --reason <text>: the requester is told why");
      const status = sub === "approve" ? "approved" : "rejected";
      const body = { status, ...(values.reason !== undefined ? { reason: values.reason } : {}), ...(values.as !== undefined ? { decidedBy: values.as } : {}) };
      const { approval } = await io.server().request<{ approval: ApprovalRecord }>("PATCH", approvalPath(positionals[0]!), { body, session: true });
      io.stdout.write(`${status === "approved" ? "Approved" : "Rejected"} ${approval.id} "${printable(approval.title)}" as ${printable(approval.decidedBy ?? "?")}${execution(approval)}\n`);
      return EXIT_OK;
    }
    default:
      throw new UsageError(sub === undefined ? "missing sub-command" : `unknown sub-command "${sub}"`);
  }
}

/** `/api/approvals/<id>`; "." and ".." would be resolved as path segments into another route. */
function approvalPath(id: string): string {
  if (id === "." || id === "..") throw new UsageError(`"${id}" is not an approval id`);
  return `/api/approvals/${encodeURIComponent(id)}`;
}

function execution(a: ApprovalRecord): string {
  if (a.executionStatus === "none") return "";
  return `; execution ${a.executionStatus}${a.executionError ? `: ${printable(a.executionError)}` : ""}`;
}

function renderList(list: ApprovalList, all: boolean): string {
  const rows = (items: Summary[]) =>
    items.map((a) => `  ${a.id}  ${a.status.padEnd(8)}  ${printable(a.requestedBy).padEnd(16)}  ${printable(a.command ?? "-").padEnd(16)}  ${printable(a.title)}${a.expired ? "  (expired)" : ""}`);
  const more = list.pendingTotal > list.pending.length ? ` (showing ${list.pending.length})` : "";
  const lines = [`Pending: ${list.pendingTotal}${more}`, ...rows(list.pending)];
  if (all) lines.push("", `Decided (newest first, at most ${PAGE}): ${list.history.length}`, ...rows(list.history));
  if (list.pendingTotal > 0) lines.push("", "muster approvals show <id> prints one with its payload.");
  return `${lines.join("\n")}\n`;
}

function renderApproval(a: ApprovalRecord): string {
  const field = (name: string, value: string | null | undefined) => `${`${name}:`.padEnd(14)}${value === null || value === undefined ? "-" : printable(value)}`;
  const lines = [
    field("id", a.id),
    field("title", a.title),
    field("status", a.status + (a.expired ? " (expired)" : "")),
    field("type", a.command),
    field("requested by", a.requestedBy),
    field("approver", a.approver),
    field("created", a.createdAt),
    field("expires", a.expiresAt),
    field("gated", a.gated ? "yes: approving runs the action with this exact payload" : "no"),
    field("context", a.context),
  ];
  if (a.status !== "pending") lines.push(field("decided by", a.decidedBy), field("reason", a.reason), field("resolved", a.resolvedAt), field("execution", a.executionStatus + (a.executionError ? `: ${a.executionError}` : "")));
  lines.push("payload:", a.payload === undefined || a.payload === null ? "  -" : printable(JSON.stringify(a.payload, null, 2)).replace(/^/gm, "  "));
  return `${lines.join("\n")}\n`;
}
