// The messages council members receive. Each one is self-contained: a member's gateway
// session remembers its own turns, but every prompt restates what it needs to answer.
import { clip } from "@muster/plugin";
import type { CouncilPosition } from "./council-record.ts";

/** Longest quoted position or proposal, so prompts stay bounded with 7 agents and 5 rounds. */
const QUOTE_MAX = 4_000;

const who = (agentId: string, role: string | null) => (role ? `${agentId} (your role in the organisation: ${role})` : agentId);
const quote = (positions: readonly CouncilPosition[]) => positions.map((p) => `[${p.agentId}]\n${clip(p.text, QUOTE_MAX)}`).join("\n\n");

export function positionPrompt(input: { topic: string; agentId: string; role: string | null; round: number; rounds: number; previous: readonly CouncilPosition[] }): string {
  const head = `You are ${who(input.agentId, input.role)}, a member of a council deliberating on a topic (round ${input.round} of ${input.rounds}).\n\nTopic:\n${input.topic}`;
  if (input.previous.length === 0) return `${head}\n\nState your position on the topic in a few short paragraphs, from the point of view of your role.`;
  return (
    `${head}\n\nThe council's positions in round ${input.round - 1}:\n\n${quote(input.previous)}\n\n` +
    "State your position for this round: keep it, revise it or give it up in light of the others', and say why."
  );
}

export function proposalPrompt(input: { topic: string; agentId: string; role: string | null; positions: readonly CouncilPosition[] }): string {
  return (
    `You are ${who(input.agentId, input.role)}, the moderator of a council.\n\nTopic:\n${input.topic}\n\n` +
    `The council's final positions:\n\n${quote(input.positions)}\n\n` +
    "Write one concrete proposal the council can vote on, drawn from these positions, in at most 300 words. Reply with the proposal only."
  );
}

export function votePrompt(input: { topic: string; agentId: string; role: string | null; proposal: string }): string {
  return (
    `You are ${who(input.agentId, input.role)}, a member of a council.\n\nTopic:\n${input.topic}\n\n` +
    `The moderator's proposal:\n${clip(input.proposal, QUOTE_MAX)}\n\n` +
    'Vote on the proposal. Reply with one JSON object and nothing else: {"vote": "support" | "oppose" | "abstain", "confidence": <a number from 0 to 1>, "reason": "<one sentence>"}'
  );
}
