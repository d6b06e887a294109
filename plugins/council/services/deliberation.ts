import { clip, retryWhileLocked, type ApprovalGate, type EventBus, type Logger, type WorkspacePaths } from "@muster/plugin";
import type { Crew } from "../../agents/tokens.ts";
import type { AgentTurnRunner } from "../../chat/tokens.ts";
import type { UsageLedger } from "../../usage/tokens.ts";
import type { CouncilConfig } from "../config.ts";
import type { CouncilPosition, CouncilSessionRecord, CouncilVote } from "./council-record.ts";
import type { CouncilStore } from "./council-store.ts";
import { renderMemo, tally } from "./memo.ts";
import { writeMemo } from "./memo-writer.ts";
import { positionPrompt, proposalPrompt, votePrompt } from "./prompts.ts";
import { parseVote } from "./vote-parser.ts";

/** The gated action an adopted proposal becomes (DESIGN §14.3). */
export const COUNCIL_DECISION = "council.decision";

/** What the `council.decision` approval stores; approving records the ratification. */
export interface CouncilDecisionPayload {
  sessionId: string;
  topic: string;
  proposal: string;
  memoPath: string;
  votes: { support: number; oppose: number; abstain: number };
}

export interface DeliberationDeps {
  store: CouncilStore;
  turns: AgentTurnRunner;
  gate: ApprovalGate;
  workspace: WorkspacePaths;
  events: EventBus;
  config: CouncilConfig;
  logger: Logger;
  /** Budgets and a cost event for each turn (the usage plugin), when loaded. */
  usage?: UsageLedger;
  /**
   * The crew capability (the agents plugin), when loaded: who the members are (unknown ones
   * refused), their roles, and the model each turn ran on (cost events). Without it members
   * are not checked here (the gateway decides) and have no role in the prompts.
   */
  crew?: Crew;
}

/** The gateway session of one council member for one council session. */
export const councilSessionKey = (agentId: string, sessionId: string) => `agent:${agentId}:council-${sessionId}`;

/** A cost event per turn, priced with the model the crew directory knows; failing to record one never fails the session. */
async function recordCost(deps: DeliberationDeps, agentId: string, sessionKey: string, usage: { inputTokens: number; outputTokens: number }): Promise<void> {
  if (!deps.usage) return;
  try {
    const model = (await deps.crew?.modelOf(agentId, sessionKey)) ?? "unknown";
    await deps.usage.record({ agentId, model, action: "session", inputTokens: usage.inputTokens, outputTokens: usage.outputTokens });
  } catch (error) {
    // The session's record is what matters here; a lost cost event is logged, as chat and dispatch do, not worth failing it.
    deps.logger.warn({ err: error, agentId }, "council cost event not recorded");
  }
}

/**
 * Runs one council session to its end: rounds of positions (each member sees every position
 * of the round before and its own role), the moderator's proposal, every member's vote, the
 * outcome, the memo and, when adopted, the pending approval. Each step is stored as it
 * happens and published as `council.session.progressed`. Throws on the first failure (the
 * caller ends the session as failed or cancelled); the stores' writes only touch a session
 * still `running`.
 */
export async function deliberate(deps: DeliberationDeps, session: CouncilSessionRecord, signal: AbortSignal): Promise<void> {
  const { store, events } = deps;
  const roles = new Map(await Promise.all(session.agents.map(async (id) => [id, (await deps.crew?.role(id)) ?? null] as const)));
  const ask = async (agentId: string, message: string) => {
    // A member that went over its daily budget during the session fails it (BUDGET_EXCEEDED) before the gateway is asked.
    await deps.usage?.checkBudget(agentId);
    const sessionKey = councilSessionKey(agentId, session.id);
    const reply = await deps.turns.run({ agentId, sessionKey, message, timeoutMs: deps.config.turnTimeoutMs, signal });
    await recordCost(deps, agentId, sessionKey, reply.usage);
    return reply.text;
  };
  // Turns happened on the gateway; a locked database must not lose or repeat them.
  const write = (fn: () => boolean | Promise<boolean>) => retryWhileLocked(fn);

  const positions: CouncilPosition[] = [];
  for (let round = 1; round <= session.rounds; round++) {
    const previous = positions.filter((p) => p.round === round - 1);
    for (const agentId of session.agents) {
      const text = await ask(agentId, positionPrompt({ topic: session.topic, agentId, role: roles.get(agentId) ?? null, round, rounds: session.rounds, previous }));
      const position = { round, agentId, text };
      positions.push(position);
      await write(() => store.appendPosition(session.id, position));
      events.publish("council.session.progressed", { id: session.id, step: "position", agentId, round }, { public: true });
    }
  }

  const moderator = session.agents[0]!;
  const finalRound = positions.filter((p) => p.round === session.rounds);
  const proposal = await ask(moderator, proposalPrompt({ topic: session.topic, agentId: moderator, role: roles.get(moderator) ?? null, positions: finalRound }));
  await write(() => store.setProposal(session.id, proposal));
  events.publish("council.session.progressed", { id: session.id, step: "proposal", agentId: moderator, round: null }, { public: true });

  const votes: CouncilVote[] = [];
  for (const agentId of session.agents) {
    const vote = parseVote(agentId, await ask(agentId, votePrompt({ topic: session.topic, agentId, role: roles.get(agentId) ?? null, proposal })));
    votes.push(vote);
    await write(() => store.appendVote(session.id, vote));
    events.publish("council.session.progressed", { id: session.id, step: "vote", agentId, round: null }, { public: true });
  }

  const counts = tally(votes);
  const outcome = counts.support > counts.oppose ? "adopted" : "no_consensus";
  signal.throwIfAborted();
  // The memo first, so the approval can point the human at it.
  const date = new Date().toISOString();
  const memoPath = await writeMemo(deps.workspace, {
    date: date.slice(0, 10),
    topic: session.topic,
    text: renderMemo({ id: session.id, topic: session.topic, agents: session.agents, rounds: session.rounds, positions, proposal, votes, outcome, date }),
  });
  const approvalId =
    outcome === "adopted"
      ? (
          await deps.gate.request<CouncilDecisionPayload>(
            COUNCIL_DECISION,
            { sessionId: session.id, topic: session.topic, proposal, memoPath, votes: counts },
            {
              requestedBy: "council",
              title: clip(`Council decision: ${session.topic.replace(/\s+/g, " ").trim()}`, 200),
              taskId: `council:${session.id}`,
              context: clip(`Proposal by ${moderator}, adopted with ${counts.support} support, ${counts.oppose} oppose, ${counts.abstain} abstain. Memo: ${memoPath}\n\n${proposal}`, 10_000),
            },
          )
        ).approvalId
      : null;
  await write(() => store.complete(session.id, { outcome, approvalId, memoPath, at: new Date().toISOString() }));
}
