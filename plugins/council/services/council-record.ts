import type { CouncilSessionRow } from "../entities/council-session.ts";

export type CouncilStatus = "running" | "completed" | "failed" | "cancelled";
export type CouncilOutcome = "adopted" | "no_consensus";

export interface CouncilPosition {
  round: number;
  agentId: string;
  text: string;
}

export interface CouncilVote {
  agentId: string;
  vote: "support" | "oppose" | "abstain";
  /** 0..1 */
  confidence: number;
  reason: string;
}

/** A council session as the API returns it (DESIGN §14.3, plus when and by whom it was ratified). */
export interface CouncilSessionRecord {
  id: string;
  topic: string;
  agents: string[];
  rounds: number;
  status: CouncilStatus;
  positions: CouncilPosition[];
  proposal: string | null;
  votes: CouncilVote[];
  outcome: CouncilOutcome | null;
  approvalId: string | null;
  memoPath: string | null;
  error: string | null;
  createdAt: string;
  completedAt: string | null;
  ratifiedAt: string | null;
  ratifiedBy: string | null;
}

const parseArray = <T>(text: string): T[] => {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
};

export function toCouncilRecord({ owner: _owner, ...row }: CouncilSessionRow): CouncilSessionRecord {
  return {
    ...row,
    agents: parseArray<string>(row.agents),
    status: row.status as CouncilStatus,
    positions: parseArray<CouncilPosition>(row.positions),
    votes: parseArray<CouncilVote>(row.votes),
    outcome: row.outcome === "adopted" || row.outcome === "no_consensus" ? row.outcome : null,
  };
}
