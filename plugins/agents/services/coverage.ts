import { agentsErrors } from "../errors.ts";
import type { AgentRecord } from "../tokens.ts";

export interface CoverageCandidate {
  id: string;
  role: string | null;
  skillOverlap: number;
  sameTier: boolean;
  sameSquad: boolean;
  sharedSkills: string[];
}

export interface Coverage {
  target: { id: string; role: string | null; tier: number | null; squad: string | null; skills: string[] };
  candidates: CoverageCandidate[];
}

/**
 * Who could cover for an agent (DESIGN §14.5): every other agent sharing at least one skill,
 * sorted by the number of shared skills, then same tier first (the reference computed the
 * tier but never sorted by it), then id.
 */
export function coverageFor(agentId: string, agents: AgentRecord[]): Coverage {
  const target = agents.find((a) => a.id === agentId);
  if (!target) throw agentsErrors.AGENT_NOT_FOUND({ agentId });
  const wanted = new Set(target.skills);
  const candidates = agents
    .filter((a) => a.id !== target.id)
    .map((a) => {
      const sharedSkills = [...new Set(a.skills)].filter((s) => wanted.has(s)).sort();
      return { id: a.id, role: a.role, skillOverlap: sharedSkills.length, sameTier: a.tier !== null && a.tier === target.tier, sameSquad: a.squad !== null && a.squad === target.squad, sharedSkills };
    })
    .filter((c) => c.skillOverlap > 0)
    .sort((a, b) => b.skillOverlap - a.skillOverlap || Number(b.sameTier) - Number(a.sameTier) || a.id.localeCompare(b.id));
  return { target: { id: target.id, role: target.role, tier: target.tier, squad: target.squad, skills: target.skills }, candidates };
}
