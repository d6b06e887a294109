import type { AutoDenyRule, GatewayApprovalKind } from "../config.ts";

/** The first auto-deny rule matching a request, if any. */
export function matchAutoDeny(rules: readonly AutoDenyRule[], kind: GatewayApprovalKind, agentId: string | null): AutoDenyRule | undefined {
  return rules.find((rule) => (rule.kinds === undefined || rule.kinds.includes(kind)) && (rule.agents === undefined || (agentId !== null && rule.agents.includes(agentId))));
}
