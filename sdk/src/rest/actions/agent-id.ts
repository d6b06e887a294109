import type { MusterClient } from "../client.ts";

/** The acting agent: the parameter when given, else the client's `agentId`. */
export function agentIdOf(client: MusterClient, agentId: string | undefined, action: string): string {
  const id = agentId ?? client.config.agentId;
  if (!id) throw new TypeError(`${action}: pass agentId, or create the client with { agentId }`);
  return id;
}
