import { atomically, defineStore, insertionOrder, type Database, type EntityStore } from "@muster/plugin";
import { ChatMessage, type ChatMessageRow } from "../entities/chat-message.ts";
import { ChatSession, type ChatSessionRow } from "../entities/chat-session.ts";

/** A chat session as the API returns it. */
export interface ChatSessionRecord {
  id: string;
  mode: "single" | "party";
  agentIds: string[];
  title: string;
  createdAt: string;
  updatedAt: string;
}

/** A chat message as the API returns it. */
export interface ChatMessageRecord extends Omit<ChatMessageRow, "toolCalls" | "artifacts"> {
  toolCalls: unknown[];
  artifacts: unknown[];
}

const parseArray = (text: string): unknown[] => {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
};

const toSession = (row: ChatSessionRow): ChatSessionRecord => ({ ...row, agentIds: parseArray(row.agentIds).filter((v): v is string => typeof v === "string") });
const toMessage = (row: ChatMessageRow): ChatMessageRecord => ({ ...row, toolCalls: parseArray(row.toolCalls), artifacts: parseArray(row.artifacts) });

// Text and number columns only: rows need no mapping.
/** Most recently active first. */
const sessions = defineStore(ChatSession, { orderBy: [{ updatedAt: "desc" }, insertionOrder("desc")], mapRows: false });
/** Newest first (a page is reversed to read oldest first). */
const messages = defineStore(ChatMessage, { orderBy: [{ createdAt: "desc" }, insertionOrder("desc")], mapRows: false });

// The statements of the atomic steps, in SQL both engines read (quoted camelCase names, `?`).
const INSERT_SESSION = `INSERT INTO chat_sessions (id, mode, "agentIds", title, "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)`;
const SESSION_AGENTS = `SELECT "agentIds" FROM chat_sessions WHERE id = ?`;
const SET_AGENTS_AND_TOUCH = `UPDATE chat_sessions SET "agentIds" = ?, "updatedAt" = ? WHERE id = ?`;
const TOUCH_SESSION = `UPDATE chat_sessions SET "updatedAt" = ? WHERE id = ?`;
const INSERT_MESSAGE = `INSERT INTO chat_messages (id, "sessionId", role, "agentId", round, text, thinking, "toolCalls", artifacts, "runId", "inputTokens", "outputTokens", "createdAt")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const messageValues = (m: ChatMessageRecord) => [m.id, m.sessionId, m.role, m.agentId, m.round, m.text, m.thinking, JSON.stringify(m.toolCalls), JSON.stringify(m.artifacts), m.runId, m.inputTokens, m.outputTokens, m.createdAt];

/**
 * `chat_sessions` and `chat_messages`, on SQLite and PostgreSQL: reads over the store kit
 * (plain rows). Each write is several statements that must commit together (a session with
 * its first message, a reply with its session's touch, a session with its messages), so each
 * is one atomic step (the kit's `atomically`): on SQLite one synchronous transaction that no
 * other request's statement can interleave with, on PostgreSQL one transaction.
 */
export class ChatStore {
  private readonly db: () => Database;
  private readonly sessions: EntityStore<typeof ChatSession>;
  private readonly messageRows: EntityStore<typeof ChatMessage>;
  constructor(db: () => Database) {
    this.db = db;
    this.sessions = sessions.on(db);
    this.messageRows = messages.on(db);
  }

  async getSession(id: string): Promise<ChatSessionRecord | undefined> {
    const row = await this.sessions.get(id);
    return row ? toSession(row) : undefined;
  }

  async listSessions(limit: number): Promise<ChatSessionRecord[]> {
    return (await this.sessions.list({ limit })).map(toSession);
  }

  /** The newest `limit` messages of a session, oldest first. */
  async messages(sessionId: string, limit: number): Promise<ChatMessageRecord[]> {
    return (await this.messageRows.list({ where: { sessionId }, limit })).reverse().map(toMessage);
  }

  /**
   * Stores the human's message, creating the session first when it is new (else adding the
   * agents of `session.agentIds` it lacks, after those it has), as one step: a session never
   * exists without the message that started it.
   */
  async addUserMessage(session: ChatSessionRecord, message: ChatMessageRecord, isNew: boolean): Promise<void> {
    const db = this.db();
    // PostgreSQL: the session's row stays locked from the read of its agents to the commit, so
    // two follow-ups naming new agents at once both land (the second reads the first's list).
    // SQLite: the step is one synchronous transaction, which nothing interleaves with.
    const readAgents = db.engine === "postgresql" ? `${SESSION_AGENTS} FOR UPDATE` : SESSION_AGENTS;
    await atomically(db, function* (tx) {
      if (isNew) {
        yield* tx.run(INSERT_SESSION, [session.id, session.mode, JSON.stringify(session.agentIds), session.title, session.createdAt, session.updatedAt]);
      } else {
        const row = yield* tx.get<{ agentIds: string }>(readAgents, [session.id]);
        if (row) {
          const agentIds = parseArray(row.agentIds);
          for (const agentId of session.agentIds) if (!agentIds.includes(agentId)) agentIds.push(agentId);
          yield* tx.run(SET_AGENTS_AND_TOUCH, [JSON.stringify(agentIds), session.updatedAt, session.id]);
        }
      }
      yield* tx.run(INSERT_MESSAGE, messageValues(message));
    });
  }

  /** Stores an agent's reply and touches its session, as one step. */
  async addReply(message: ChatMessageRecord): Promise<void> {
    await atomically(this.db(), function* (tx) {
      yield* tx.run(INSERT_MESSAGE, messageValues(message));
      yield* tx.run(TOUCH_SESSION, [message.createdAt, message.sessionId]);
    });
  }

  /** Deletes a session with its messages, as one step; resolves to whether it existed. */
  deleteSession(id: string): Promise<boolean> {
    return atomically(this.db(), function* (tx) {
      yield* tx.run(`DELETE FROM chat_messages WHERE "sessionId" = ?`, [id]);
      return (yield* tx.run("DELETE FROM chat_sessions WHERE id = ?", [id])).changes === 1;
    });
  }
}
