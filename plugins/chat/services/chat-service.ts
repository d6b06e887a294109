import { randomUUID } from "node:crypto";
import { clip, retryWhileLocked, type GatewayClient, type Logger, type TextRedactor } from "@muster/plugin";
import type { ActivityLog } from "../../activities/tokens.ts";
import type { Crew } from "../../agents/tokens.ts";
import type { UsageLedger } from "../../usage/tokens.ts";
import type { ChatConfig } from "../config.ts";
import { chatErrors } from "../errors.ts";
import type { AgentReply, AgentTurnRunner, Chat, TokenUsage } from "../tokens.ts";
import type { ChatMessageRecord, ChatSessionRecord, ChatStore } from "./chat-store.ts";
import { partyPrompt } from "./party-prompt.ts";

/** A validated `POST /api/chat` body, single mode as a party of one. */
export interface ChatRequest {
  message: string;
  mode: "single" | "party";
  agentIds: string[];
  rounds: number;
  sessionId?: string;
}

/** The SSE frames between `start` and `done`/`error` (DESIGN §14.2). */
export type ChatFrame =
  | { type: "agent_start"; agentId: string; round: number }
  | { type: "delta"; agentId: string; text: string; replace?: true }
  | { type: "agent_done"; agentId: string; round: number; text: string };

export interface SingleChatResult {
  ok: true;
  sessionId: string;
  mode: "single";
  reply: { agentId: string; text: string; thinking?: string; toolCalls: unknown[]; runId: string };
  usage: TokenUsage;
}

export interface PartyChatResult {
  ok: true;
  sessionId: string;
  mode: "party";
  replies: Array<{ agentId: string; round: number; text: string; runId: string }>;
  usage: TokenUsage;
  truncated: boolean;
}

export type ChatResult = SingleChatResult | PartyChatResult;

/** A chat whose inputs were checked and whose user message is stored, ready to run. */
export interface PreparedChat {
  sessionId: string;
  mode: "single" | "party";
  agentIds: string[];
  run(options: ChatRunOptions): Promise<ChatResult>;
}

/** How a prepared chat runs (as a turn of its own: see chat-turns.ts). */
export interface ChatRunOptions {
  /** Aborting it aborts the agent's run on the gateway (`chat.abort`); the chat rejects with its reason. */
  signal: AbortSignal;
  /** Epoch ms past which the running agent turn is aborted with 504 `GATEWAY_TIMEOUT` (the gateway is told the same). */
  deadline: number;
  frames?: (frame: ChatFrame) => void;
  /** Each agent reply once stored, as the session's messages show it. */
  onReply?: (message: ChatMessageRecord) => void;
}

interface ChatServiceDeps {
  store: ChatStore;
  turns: AgentTurnRunner;
  gateway: GatewayClient;
  activities: ActivityLog | undefined;
  config: ChatConfig;
  logger: Logger;
  /** Budgets and cost events (the usage plugin), when loaded. */
  usage?: UsageLedger;
  /**
   * The crew capability (the agents plugin), when loaded: who the agents are, whether the
   * gateway knows them, and the model each turn ran on (cost events). Without it no id is
   * refused here: the gateway's chat.send decides.
   */
  crew?: Crew;
  /** Scrubs vault secret values from message text before it is stored (history, session titles). */
  redaction: TextRedactor;
}

/** The gateway session of one agent in one Muster chat session (DESIGN §14.2). */
export const chatSessionKey = (agentId: string, sessionId: string) => `agent:${agentId}:muster-${sessionId}`;

/** Output tokens a reply counts for the party cap when the gateway reports none (~4 characters a token). */
const estimatedTokens = (reply: AgentReply) => reply.usage.outputTokens || Math.ceil(reply.text.length / 4);

/** Chat with one agent or a party of agents through the gateway, stored as sessions and messages. */
export class ChatService implements Chat {
  private readonly deps: ChatServiceDeps;
  constructor(deps: ChatServiceDeps) {
    this.deps = deps;
  }

  /**
   * Checks everything that can refuse the request (agents known, gateway connected, agents
   * registered with it, session) and only then stores the human's message, so a refused
   * request writes nothing and no turn reaches the gateway. An unknown agent is 404 whether
   * or not the gateway is up: the crew knows it or not from the organisation file and the
   * cached agents.list.
   */
  async prepare(request: ChatRequest): Promise<PreparedChat> {
    const { crew } = this.deps;
    await crew?.assertKnown(request.agentIds);
    await this.deps.gateway.ready(0);
    // Known to Muster but not to this gateway: refused with the fix instead of the gateway's 502.
    // With the list never read (null) nothing is refused: the turn says what the gateway thinks.
    await crew?.assertRegistered(request.agentIds);
    const existing = request.sessionId === undefined ? undefined : await this.deps.store.getSession(request.sessionId);
    if (request.sessionId !== undefined && !existing) throw chatErrors.CHAT_SESSION_NOT_FOUND({ id: request.sessionId });
    if (existing && existing.mode !== request.mode) throw chatErrors.CHAT_SESSION_MODE_MISMATCH({ id: existing.id, mode: existing.mode });
    // Over its daily budget, any agent of the chat refuses it (409 BUDGET_EXCEEDED) before anything is stored.
    for (const agentId of request.agentIds) await this.deps.usage?.checkBudget(agentId);

    const now = new Date().toISOString();
    const session: ChatSessionRecord = existing
      ? { ...existing, agentIds: request.agentIds, updatedAt: now }
      : { id: randomUUID(), mode: request.mode, agentIds: request.agentIds, title: clip(this.deps.redaction.redact(request.message).replace(/\s+/g, " ").trim(), 80), createdAt: now, updatedAt: now };
    await this.deps.store.addUserMessage(session, this.message(session.id, { role: "user", agentId: null, round: null, text: request.message, createdAt: now }), !existing);
    return {
      sessionId: session.id,
      mode: request.mode,
      agentIds: request.agentIds,
      run: (options) => (request.mode === "single" ? this.runSingle(session.id, request, options) : this.runParty(session.id, request, options)),
    };
  }

  listSessions(limit: number): Promise<ChatSessionRecord[]> {
    return this.deps.store.listSessions(limit);
  }

  async getSession(id: string, messageLimit: number): Promise<{ session: ChatSessionRecord; messages: ChatMessageRecord[] }> {
    const session = await this.deps.store.getSession(id);
    if (!session) throw chatErrors.CHAT_SESSION_NOT_FOUND({ id });
    return { session, messages: await this.deps.store.messages(id, messageLimit) };
  }

  /** Deletes the session and its messages (the gateway keeps its own transcripts). */
  async deleteSession(id: string): Promise<void> {
    if (!(await this.deps.store.deleteSession(id))) throw chatErrors.CHAT_SESSION_NOT_FOUND({ id });
  }

  private async runSingle(sessionId: string, request: ChatRequest, options: ChatRunOptions): Promise<SingleChatResult> {
    const agentId = request.agentIds[0]!;
    const reply = await this.turn(sessionId, agentId, request.message, null, request.message, options);
    return {
      ok: true,
      sessionId,
      mode: "single",
      reply: { agentId, text: reply.text, ...(reply.thinking === null ? {} : { thinking: reply.thinking }), toolCalls: reply.toolCalls, runId: reply.runId },
      usage: reply.usage,
    };
  }

  /** Agents speak in order, round after round; the output-token cap stops the party between turns. */
  private async runParty(sessionId: string, request: ChatRequest, options: ChatRunOptions): Promise<PartyChatResult> {
    const replies: PartyChatResult["replies"] = [];
    const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
    let counted = 0;
    let truncated = false;
    turns: for (let round = 1; round <= request.rounds; round++) {
      for (const agentId of request.agentIds) {
        if (counted >= this.deps.config.partyMaxOutputTokens) {
          truncated = true;
          break turns;
        }
        const prompt = partyPrompt({ message: request.message, agentId, round, rounds: request.rounds, previous: replies });
        const reply = await this.turn(sessionId, agentId, prompt, round, `[Party] ${request.message}`, options);
        replies.push({ agentId, round, text: reply.text, runId: reply.runId });
        usage.inputTokens += reply.usage.inputTokens;
        usage.outputTokens += reply.usage.outputTokens;
        counted += estimatedTokens(reply);
      }
    }
    return { ok: true, sessionId, mode: "party", replies, usage, truncated };
  }

  /** One agent turn: frames around it, the reply stored and logged as an activity. */
  private async turn(
    sessionId: string,
    agentId: string,
    message: string,
    round: number | null,
    subject: string,
    { signal, deadline, frames, onReply }: ChatRunOptions,
  ): Promise<AgentReply> {
    // An agent that went over its daily budget during this chat (a party) is refused before the gateway is asked.
    await this.deps.usage?.checkBudget(agentId);
    frames?.({ type: "agent_start", agentId, round: round ?? 1 });
    const sessionKey = chatSessionKey(agentId, sessionId);
    let reply: AgentReply;
    try {
      reply = await this.deps.turns.run({
        agentId,
        sessionKey,
        message,
        // What is left of the chat turn's time (turnMaxMs), not the request's wait: a reply that
        // needs a human's approval may take the gateway's whole approval time.
        timeoutMs: Math.max(1, deadline - Date.now()),
        signal,
        onDelta: frames && ((text, replace) => frames({ type: "delta", agentId, text, ...(replace ? { replace: true as const } : {}) })),
      });
    } catch (error) {
      if (!signal.aborted) this.logActivity(agentId, "chat_error", subject, (error as { code?: string }).code ?? "INTERNAL_ERROR");
      throw error;
    }
    const stored = this.message(sessionId, {
      role: "agent",
      agentId,
      round,
      text: reply.text,
      thinking: reply.thinking,
      toolCalls: reply.toolCalls,
      runId: reply.runId,
      inputTokens: reply.usage.inputTokens,
      outputTokens: reply.usage.outputTokens,
      createdAt: new Date().toISOString(),
    });
    // The reply happened on the gateway; a locked database must not make the request re-run it.
    await retryWhileLocked(() => this.deps.store.addReply(stored));
    onReply?.(stored);
    this.logActivity(agentId, "chat_response", subject, `${reply.text.length} chars, ${reply.usage.outputTokens} output tokens`);
    await this.recordCost(agentId, sessionKey, reply);
    frames?.({ type: "agent_done", agentId, round: round ?? 1, text: reply.text });
    return reply;
  }

  /** A message to store: any vault secret value in its text or thinking is redacted first, so history never holds one. */
  private message(sessionId: string, fields: Partial<ChatMessageRecord> & Pick<ChatMessageRecord, "role" | "agentId" | "round" | "text" | "createdAt">): ChatMessageRecord {
    const redact = (text: string) => this.deps.redaction.redact(text);
    const message = { id: randomUUID(), sessionId, thinking: null, toolCalls: [], artifacts: [], runId: null, inputTokens: 0, outputTokens: 0, ...fields };
    return { ...message, text: redact(message.text), thinking: message.thinking === null ? null : redact(message.thinking) };
  }

  /** The turn's cost event; like activities, failing to write one never fails the chat. */
  private async recordCost(agentId: string, sessionKey: string, reply: AgentReply): Promise<void> {
    if (!this.deps.usage) return;
    try {
      // Chat events carry no model name: the crew directory knows it from the session's row or the agent's configuration.
      const model = (await this.deps.crew?.modelOf(agentId, sessionKey)) ?? "unknown";
      await this.deps.usage.record({ agentId, model, action: "session", inputTokens: reply.usage.inputTokens, outputTokens: reply.usage.outputTokens });
    } catch (error) {
      this.deps.logger.warn({ err: error, agentId }, "chat cost event not recorded");
    }
  }

  /** Activities are a record of what happened; failing to write one never fails the chat. */
  private logActivity(agentId: string, action: "chat_response" | "chat_error", subject: string, details: string): void {
    try {
      this.deps.activities?.log({ agentId, action, target: clip(subject.replace(/\s+/g, " ").trim(), 80), details });
    } catch (error) {
      this.deps.logger.warn({ err: error, agentId, action }, "could not log the chat activity");
    }
  }
}
