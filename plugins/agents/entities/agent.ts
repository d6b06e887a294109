import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * One agent (spec: Agent record, plus DESIGN §14.5's runtime fields). The organisation file is
 * the source of truth for the organisation columns; this table mirrors it and adds what only
 * Muster knows (status, tools, sandbox). Lists are stored as JSON text.
 */
export const Agent = defineEntity({
  name: "Agent",
  tableName: "agents_agents",
  properties: {
    id: p.string().primary(),
    name: p.string(),
    role: p.string().nullable(),
    tier: p.integer().nullable(),
    squad: p.string().nullable(),
    model: p.string().nullable(),
    status: p.string().default("idle"),
    emoji: p.string().nullable(),
    reportsTo: p.string().nullable(),
    /** JSON array of skill names. */
    skills: p.text().default("[]"),
    /** JSON array of allowed tool names (empty: no allow list). */
    toolsAllow: p.text().default("[]"),
    /** JSON array of denied tool names. */
    toolsDeny: p.text().default("[]"),
    sandbox: p.enum(["off", "container"]).default("off"),
    createdAt: p.string(),
    updatedAt: p.string(),
  },
});

export type AgentRow = EntityRow<typeof Agent>;
