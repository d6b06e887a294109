import { token } from "@muster/plugin";
import type { ChatFrame, ChatRequest, ChatResult, PreparedChat } from "./services/chat-service.ts";
import type { ChatMessageRecord, ChatSessionRecord } from "./services/chat-store.ts";

export type { ChatFrame, ChatMessageRecord, ChatRequest, ChatResult, ChatSessionRecord, PreparedChat };

/** Token counts of one reply or a whole chat; 0 when the gateway reports none. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** One agent turn through the gateway (`chat.send` on `sessionKey`). */
export interface AgentTurn {
  agentId: string;
  /** The gateway session, `agent:<agentId>:<name>`; the same key continues its conversation. */
  sessionKey: string;
  message: string;
  /** Aborts the run (`chat.abort`) and rejects after this long with 504 `GATEWAY_TIMEOUT`. */
  timeoutMs: number;
  /** Aborting aborts the run on the gateway (`chat.abort`) and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Each increment of the reply as it streams; `replace` when the text so far was replaced. */
  onDelta?(text: string, replace: boolean): void;
}

/** A finished agent reply. */
export interface AgentReply {
  agentId: string;
  runId: string;
  text: string;
  thinking: string | null;
  toolCalls: unknown[];
  usage: TokenUsage;
}

/**
 * Runs agent turns through the gateway and correlates its `chat` events by run id and
 * session key. Rejects with 503 `GATEWAY_UNAVAILABLE` (not connected, or the connection
 * lost mid-run), 502 `CHAT_RUN_FAILED`/`CHAT_RUN_ABORTED`, 504 `GATEWAY_TIMEOUT`.
 */
export interface AgentTurnRunner {
  run(turn: AgentTurn): Promise<AgentReply>;
}

/** The agent turn runner. Depend on the `chat` plugin to use it. */
export const AGENT_TURNS = token<AgentTurnRunner>("chat.turns");

/** Chat sessions: start or continue one, list, read, delete. */
export interface Chat {
  /**
   * Checks a chat request (with the agents plugin: 404 `AGENT_NOT_FOUND` whether or not the gateway is up; 503
   * `GATEWAY_UNAVAILABLE`, 409 `AGENT_NOT_REGISTERED`, 404 `CHAT_SESSION_NOT_FOUND`, 409
   * `CHAT_SESSION_MODE_MISMATCH`) before any chat reaches the gateway, stores the human's
   * message and returns the chat ready to run.
   */
  prepare(request: ChatRequest): Promise<PreparedChat>;
  listSessions(limit: number): Promise<ChatSessionRecord[]>;
  getSession(id: string, messageLimit: number): Promise<{ session: ChatSessionRecord; messages: ChatMessageRecord[] }>;
  deleteSession(id: string): Promise<void>;
}

/** The chat service. Depend on the `chat` plugin to use it. */
export const CHAT = token<Chat>("chat.service");
