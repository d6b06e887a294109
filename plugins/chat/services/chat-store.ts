import { defineStore, insertionOrder, type Database, type EntityStore } from "@muster/plugin";
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

/**
 * `chat_sessions` and `chat_messages`: reads over the store kit (plain rows). Each write is
 * several statements that must commit together (a session with its first message, a reply
 * with its session's touch, a session with its messages), so each is one synchronous raw
 * `sql.transaction()` that no other request's statement can interleave with.
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
   * agents of `session.agentIds` it lacks), as one transaction: a session never exists
   * without the message that started it.
   */
  addUserMessage(session: ChatSessionRecord, message: ChatMessageRecord, isNew: boolean): void {
    const sql = this.db().sql;
    sql.transaction(() => {
      if (isNew) {
        sql
          .prepare("INSERT INTO chat_sessions (id, mode, agentIds, title, createdAt, updatedAt) VALUES (@id, @mode, @agentIds, @title, @createdAt, @updatedAt)")
          .run({ ...session, agentIds: JSON.stringify(session.agentIds) });
      } else {
        // Adds agents the session has not had yet in the statement that checks it, so two
        // follow-ups naming new agents at once both land.
        const addAgent = sql.prepare(
          "UPDATE chat_sessions SET agentIds = json_insert(agentIds, '$[#]', @agentId) WHERE id = @id AND NOT EXISTS (SELECT 1 FROM json_each(chat_sessions.agentIds) WHERE value = @agentId)",
        );
        for (const agentId of session.agentIds) addAgent.run({ id: session.id, agentId });
        sql.prepare("UPDATE chat_sessions SET updatedAt = @updatedAt WHERE id = @id").run({ id: session.id, updatedAt: session.updatedAt });
      }
      this.insertMessage(message);
    })();
  }

  /** Stores an agent's reply and touches its session, as one transaction. */
  addReply(message: ChatMessageRecord): void {
    const sql = this.db().sql;
    sql.transaction(() => {
      this.insertMessage(message);
      sql.prepare("UPDATE chat_sessions SET updatedAt = @updatedAt WHERE id = @id").run({ id: message.sessionId, updatedAt: message.createdAt });
    })();
  }

  /** Deletes a session with its messages; returns whether it existed. */
  deleteSession(id: string): boolean {
    const sql = this.db().sql;
    return sql.transaction(() => {
      sql.prepare("DELETE FROM chat_messages WHERE sessionId = ?").run(id);
      return sql.prepare("DELETE FROM chat_sessions WHERE id = ?").run(id).changes === 1;
    })();
  }

  private insertMessage(message: ChatMessageRecord): void {
    this.db()
      .sql.prepare(
        `INSERT INTO chat_messages (id, sessionId, role, agentId, round, text, thinking, toolCalls, artifacts, runId, inputTokens, outputTokens, createdAt)
         VALUES (@id, @sessionId, @role, @agentId, @round, @text, @thinking, @toolCalls, @artifacts, @runId, @inputTokens, @outputTokens, @createdAt)`,
      )
      .run({ ...message, toolCalls: JSON.stringify(message.toolCalls), artifacts: JSON.stringify(message.artifacts) });
  }
}
