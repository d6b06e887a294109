import { clip } from "@muster/plugin";

/** Longest part of one earlier reply quoted to the next speaker, so a party's prompts stay bounded. */
const QUOTE_MAX = 4_000;

export interface PartyTurnContext {
  message: string;
  agentId: string;
  round: number;
  rounds: number;
  /** Replies so far in this party, in speaking order. */
  previous: ReadonlyArray<{ agentId: string; round: number; text: string }>;
}

/**
 * The message one party member receives: the human's message and, after the first speaker,
 * every reply before it (DESIGN §14.2: each agent sees the replies before it).
 */
export function partyPrompt(turn: PartyTurnContext): string {
  const header = `You are ${turn.agentId}, taking part in a group discussion with other agents (round ${turn.round} of ${turn.rounds}).`;
  if (turn.previous.length === 0) {
    return `${header} You speak first.\n\nThe human's message:\n${turn.message}`;
  }
  const replies = turn.previous.map((r) => `[${r.agentId}, round ${r.round}]\n${clip(r.text, QUOTE_MAX)}`).join("\n\n");
  return (
    `${header}\n\nThe human's message:\n${turn.message}\n\n` +
    `The discussion so far:\n\n${replies}\n\n` +
    "Now it is your turn: agree, disagree or build on what was said, and say something the others have not."
  );
}
