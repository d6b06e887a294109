// Which operator scope each method needs (reference §2.4), and the gateway's rule for when a
// granted set covers it.

/** Scope each method needs (reference §2.4). */
export const METHOD_SCOPES: Record<string, string> = {
  health: "operator.read",
  status: "operator.read",
  "agents.list": "operator.read",
  "sessions.list": "operator.read",
  "sessions.subscribe": "operator.read",
  "chat.history": "operator.read",
  "cron.list": "operator.read",
  "cron.status": "operator.read",
  "cron.runs": "operator.read",
  "node.list": "operator.read",
  "chat.send": "operator.write",
  "chat.abort": "operator.write",
  "agent.wait": "operator.write",
  agent: "operator.write",
  "agents.create": "operator.admin",
  "cron.add": "operator.admin",
  "cron.update": "operator.admin",
  "cron.remove": "operator.admin",
  "cron.run": "operator.admin",
  "exec.approval.list": "operator.approvals",
  "exec.approval.resolve": "operator.approvals",
  "plugin.approval.list": "operator.approvals",
  "plugin.approval.resolve": "operator.approvals",
  "approval.resolve": "operator.approvals",
};

export function hasScope(granted: string[], needed: string): boolean {
  if (granted.includes(needed) || granted.includes("operator.admin")) return true;
  return needed === "operator.read" && granted.includes("operator.write");
}
