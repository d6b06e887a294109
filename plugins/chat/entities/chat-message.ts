import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * One message of a chat session (DESIGN §14.2): the human's (`role: user`) or an agent's
 * reply (`role: agent`). The one declaration of `chat_messages`.
 */
export const ChatMessage = defineEntity({
  name: "ChatMessage",
  tableName: "chat_messages",
  properties: {
    id: p.string().primary(),
    sessionId: p.string(),
    role: p.enum(["user", "agent"]),
    /** The replying agent; null for the human's messages. */
    agentId: p.string().nullable(),
    /** Party round of an agent reply (1..3); null otherwise. */
    round: p.integer().nullable(),
    text: p.text(),
    thinking: p.text().nullable(),
    /** JSON array. */
    toolCalls: p.text(),
    /** JSON array. */
    artifacts: p.text(),
    runId: p.string().nullable(),
    inputTokens: p.integer(),
    outputTokens: p.integer(),
    createdAt: p.string(),
  },
  indexes: [{ name: "chat_messages_by_session", properties: ["sessionId", "createdAt"] }],
});

/** A stored message as the query builder returns it (JSON columns as text). */
export type ChatMessageRow = EntityRow<typeof ChatMessage>;
