import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * The last stuck episode escalated per agent. An episode is identified by the agent's last
 * activity: while that does not change the agent is in the same episode, so it is escalated
 * once, also across restarts; new activity followed by silence is a new episode.
 */
export const Escalation = defineEntity({
  name: "Escalation",
  tableName: "agents_escalations",
  properties: {
    agentId: p.string().primary(),
    /** The episode's last activity (epoch ms): past 32 bits, so BIGINT on PostgreSQL, read back as a number. */
    lastActivityMs: p.bigint("number"),
    escalatedAt: p.string(),
  },
});

export type EscalationRow = EntityRow<typeof Escalation>;
