/** Events the agents plugin publishes (public: forwarded to SSE clients). */
export interface AgentsEvents {
  /** The agents table was re-synced from the organisation file. */
  "agents.records.synced": { added: string[]; removed: string[]; updated: string[] };
  /** A stuck agent was escalated to the next level of its chain (once per stuck episode). */
  "agents.agent.escalated": { agentId: string; toLevel: string; to: string | null; reason: string };
}

declare module "@muster/plugin" {
  interface MusterEvents extends AgentsEvents {}
}
