// The council memo: a markdown record of the session, written to the workspace.
import type { CouncilOutcome, CouncilPosition, CouncilVote } from "./council-record.ts";

export interface MemoInput {
  id: string;
  topic: string;
  agents: string[];
  rounds: number;
  positions: CouncilPosition[];
  proposal: string;
  votes: CouncilVote[];
  outcome: CouncilOutcome;
  date: string;
}

/** Text in a table cell: one line, no column breaks. */
const cell = (text: string) => text.replace(/\s+/g, " ").replaceAll("|", "\\|").trim();

export function tally(votes: readonly CouncilVote[]): Record<CouncilVote["vote"], number> {
  const counts = { support: 0, oppose: 0, abstain: 0 };
  for (const v of votes) counts[v.vote]++;
  return counts;
}

export function renderMemo(memo: MemoInput): string {
  const counts = tally(memo.votes);
  const lines = [
    `# Council memo: ${memo.topic.replace(/\s+/g, " ").trim()}`,
    "",
    `- Date: ${memo.date}`,
    `- Session: ${memo.id}`,
    `- Council: ${memo.agents.join(", ")} (moderator: ${memo.agents[0]})`,
    `- Rounds: ${memo.rounds}`,
    `- Outcome: ${memo.outcome} (support ${counts.support}, oppose ${counts.oppose}, abstain ${counts.abstain})`,
    `- Ratification: ${memo.outcome === "adopted" ? "requested (approval `council.decision`, pending a human's decision)" : "none (no consensus)"}`,
    "",
    "## Topic",
    "",
    memo.topic,
    "",
    "## Positions",
  ];
  for (let round = 1; round <= memo.rounds; round++) {
    lines.push("", `### Round ${round}`);
    for (const p of memo.positions.filter((x) => x.round === round)) lines.push("", `#### ${p.agentId}`, "", p.text.trim());
  }
  lines.push("", `## Proposal (${memo.agents[0]})`, "", memo.proposal.trim(), "", "## Votes", "", "| Agent | Vote | Confidence | Reason |", "|---|---|---|---|");
  for (const v of memo.votes) lines.push(`| ${cell(v.agentId)} | ${v.vote} | ${v.confidence.toFixed(2)} | ${cell(v.reason)} |`);
  return `${lines.join("\n")}\n`;
}
