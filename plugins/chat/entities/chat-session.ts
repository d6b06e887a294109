import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * A Muster chat session (DESIGN §14.2): the one declaration of `chat_sessions`
 * (migrations.ts creates it; a test checks they agree). Each agent in it has its own
 * gateway session `agent:<agentId>:muster-<id>`.
 */
export const ChatSession = defineEntity({
  name: "ChatSession",
  tableName: "chat_sessions",
  properties: {
    id: p.string().primary(),
    mode: p.enum(["single", "party"]),
    /** JSON array of agent ids, in speaking order. */
    agentIds: p.text(),
    title: p.string(),
    createdAt: p.string(),
    updatedAt: p.string(),
  },
  indexes: [{ name: "chat_sessions_by_update", properties: ["updatedAt"] }],
});

/** A stored session as the query builder returns it (`agentIds` as JSON text). */
export type ChatSessionRow = EntityRow<typeof ChatSession>;
