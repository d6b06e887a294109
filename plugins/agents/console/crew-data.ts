// The crew's records as the console pages use them: the agent list (from the organisation
// file) joined with the gateway's view of each agent, so an agent the gateway does not know
// is shown as such instead of as a healthy idle one.
import { muster, type Tone } from "@muster/console";

type Client = typeof muster;
export type AgentRecord = Awaited<ReturnType<Client["getAgents"]>>["agents"][number];
export type HealthEntry = Awaited<ReturnType<Client["getAgentsHealth"]>>["agents"][number];
export type GatewayLink = Awaited<ReturnType<Client["getAgentsHealth"]>>["gateway"];

export interface CrewMember {
  agent: AgentRecord;
  health: HealthEntry | undefined;
}

export interface Crew {
  members: CrewMember[];
  gateway: GatewayLink;
}

export async function loadCrew(): Promise<Crew> {
  const [{ agents }, health] = await Promise.all([muster.getAgents(), muster.getAgentsHealth()]);
  const byId = new Map(health.agents.map((entry) => [entry.id, entry]));
  return { members: agents.map((agent) => ({ agent, health: byId.get(agent.id) })), gateway: health.gateway };
}

export interface HealthLabel {
  text: string;
  tone: Tone;
  /** Why, for the badge's tooltip and the agent's page. */
  detail: string;
}

/** The state to show: "not registered" and "unknown" win over the state the sessions alone suggest. */
export function healthLabel(health: HealthEntry | undefined, gateway: GatewayLink): HealthLabel {
  if (!health) return { text: "unknown", tone: "muted", detail: "The health check has no entry for this agent." };
  if (health.registered === false) return { text: "not registered", tone: "bad", detail: "The gateway does not know this agent, so it cannot run. Register it (an approval) from the Crew page." };
  if (gateway.state !== "connected") return { text: "offline", tone: "warn", detail: `The gateway is ${gateway.state}: no agent can run now.` };
  const tones: Record<HealthEntry["state"], Tone> = { active: "ok", idle: "info", stalled: "warn", stuck: "bad", offline: "warn" };
  return { text: health.state, tone: tones[health.state], detail: health.idleMinutes === null ? "No session yet." : `Last activity ${Math.round(health.idleMinutes)} min ago.` };
}
