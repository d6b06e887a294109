import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * A council session (DESIGN §14.3): the one declaration of `council_sessions` (migrations.ts
 * creates it; a test checks they agree). Positions and votes are JSON arrays that only grow,
 * appended one at a time (the store's atomic read-append-write).
 */
export const CouncilSession = defineEntity({
  name: "CouncilSession",
  tableName: "council_sessions",
  properties: {
    id: p.string().primary(),
    topic: p.text(),
    /** JSON array of agent ids; the first is the moderator. */
    agents: p.text(),
    rounds: p.integer(),
    status: p.enum(["running", "completed", "failed", "cancelled"]),
    /** JSON array of `{ round, agentId, text }`. */
    positions: p.text(),
    proposal: p.text().nullable(),
    /** JSON array of `{ agentId, vote, confidence, reason }`. */
    votes: p.text(),
    outcome: p.string().nullable(),
    approvalId: p.string().nullable(),
    /** Workspace-relative path of the memo. */
    memoPath: p.string().nullable(),
    error: p.string().nullable(),
    createdAt: p.string(),
    completedAt: p.string().nullable(),
    /** When a human approved the decision (the `council.decision` approval), and who. */
    ratifiedAt: p.string().nullable(),
    ratifiedBy: p.string().nullable(),
    /** The instance deliberating it (`hostTokens.instances`); null for sessions from before team mode. Not part of the API's record. */
    owner: p.string().nullable(),
  },
  indexes: [{ name: "council_sessions_by_creation", properties: ["createdAt"] }],
});

/** A stored session as the query builder returns it (JSON columns as text). */
export type CouncilSessionRow = EntityRow<typeof CouncilSession>;
