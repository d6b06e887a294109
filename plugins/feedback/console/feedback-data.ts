// What the Feedback page's parts share: the entry type, the kinds of feedback with their
// labels, and the crew the agent choices come from.
import { muster, type Muster, type Tone } from "@muster/console";

export type FeedbackEntry = Awaited<ReturnType<Muster["getFeedback"]>>["entries"][number];
export type FeedbackType = FeedbackEntry["type"];
export type CrewAgent = Awaited<ReturnType<Muster["getAgents"]>>["agents"][number];

/** The four kinds (the plugin's `FEEDBACK_TYPES`), in the order the form offers them. */
export const FEEDBACK_TYPES: readonly { value: FeedbackType; label: string; tone: Tone }[] = [
  { value: "correction", label: "Correction", tone: "warn" },
  { value: "praise", label: "Praise", tone: "ok" },
  { value: "pattern", label: "Pattern", tone: "info" },
  { value: "rule", label: "Rule", tone: "muted" },
];

export const typeInfo = (type: FeedbackType) => FEEDBACK_TYPES.find((t) => t.value === type) ?? FEEDBACK_TYPES[0]!;

/** The crew (the agents plugin's records), for the agent choices. */
export async function loadCrew(): Promise<CrewAgent[]> {
  return (await muster.getAgents()).agents;
}

/** "🦉 Odin (odin)" for a crew member; the bare id for anyone else. */
export function agentLabel(id: string, crew: readonly CrewAgent[] | undefined): string {
  const agent = crew?.find((a) => a.id === id);
  return agent ? `${agent.emoji ? `${agent.emoji} ` : ""}${agent.name} (${agent.id})` : id;
}
