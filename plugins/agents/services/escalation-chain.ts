import type { OrgStructure } from "../../memory/tokens.ts";
import type { AgentRecord, EscalationTarget } from "../tokens.ts";

/** The reference example's tiers (reference §6.2): 0 platform, 1 executive, 2 management, 3 execution. */
const DEFAULT_LEVELS: Record<number, string> = { 0: "platform", 1: "executive", 2: "management", 3: "execution" };
/** The spec's chain, used when the file has no `escalation_chain`. */
const DEFAULT_CHAIN = [
  { from: "execution", to: "management", triggers: ["blocker", "conflict", "unclear_requirements"] },
  { from: "management", to: "executive", triggers: ["architecture_decision", "resource_conflict", "deadline_risk"] },
  { from: "executive", to: "owner", triggers: ["budget", "strategy", "external_communication", "deploy_approval"] },
];

/** The chain level of a tier: the file's tier name when it is a level of the chain, else the reference's default. */
export function levelOf(tier: number | null, org: OrgStructure | null): string | null {
  if (tier === null) return null;
  const chain = org?.escalation.length ? org.escalation : DEFAULT_CHAIN;
  const levels = new Set(chain.flatMap((s) => [s.from, s.to]));
  const named = org?.tiers.find((t) => t.tier === tier)?.name;
  if (named && levels.has(named)) return named;
  return DEFAULT_LEVELS[tier] ?? null;
}

/**
 * The next level above an agent (DESIGN §14.7: execution → management → executive → owner)
 * and who there hears about it: the agent it reports to when that one sits at the next level,
 * else someone at that level in its squad, else anyone at that level, else its manager, else
 * the owner.
 */
export function escalationFor(agent: AgentRecord, org: OrgStructure | null, all: AgentRecord[]): EscalationTarget {
  const chain = org?.escalation.length ? org.escalation : DEFAULT_CHAIN;
  const fromLevel = levelOf(agent.tier, org);
  const step = chain.find((s) => s.from === fromLevel);
  const toLevel = step?.to ?? "owner";
  const owner = org?.owner ?? null;
  const base = { fromLevel, toLevel, triggers: step?.triggers ?? [] };
  if (toLevel === "owner") return { ...base, agentId: null, owner };
  const others = all.filter((a) => a.id !== agent.id);
  const atLevel = others.filter((a) => levelOf(a.tier, org) === toLevel);
  const manager = others.find((a) => a.id === agent.reportsTo);
  const target =
    (manager && levelOf(manager.tier, org) === toLevel ? manager : undefined) ??
    atLevel.find((a) => agent.squad !== null && a.squad === agent.squad) ??
    atLevel[0] ??
    manager;
  return target ? { ...base, agentId: target.id, owner: null } : { ...base, toLevel: "owner", agentId: null, owner };
}

/** The reason category of a stuck agent at each step: a blocker, a deadline risk, a matter of strategy. */
export function stuckReason(target: EscalationTarget): string {
  for (const preferred of ["blocker", "deadline_risk", "strategy"]) if (target.triggers.includes(preferred)) return preferred;
  return target.triggers[0] ?? "blocker";
}
