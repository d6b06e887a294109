import { hostErrors } from "@muster/plugin";
import type { AgentDirectory as Crew } from "../../agents/tokens.ts";
import { chatErrors } from "../errors.ts";
import type { AgentDirectory } from "../tokens.ts";

/**
 * "Is this agent known" answered by the `agents` plugin's directory when it is loaded, so chat,
 * council and the crew pages agree on who exists (one cache of agents.list). The organisation
 * file itself is read too (`org`), for roles and for agents added a moment ago: the agents
 * table mirrors it only once its watcher has seen the change. Without that plugin,
 * AgentDirectoryService answers alone.
 */
/** What the organisation file says about agents (AgentDirectoryService reads it). */
type OrgFileAgents = Pick<AgentDirectory, "role"> & { inOrgFile(agentId: string): Promise<boolean> };

export class CrewAgentDirectory implements AgentDirectory {
  private readonly crew: Crew;
  private readonly org: OrgFileAgents;
  constructor(crew: Crew, org: OrgFileAgents) {
    this.crew = crew;
    this.org = org;
  }

  async assertKnown(agentIds: readonly string[]): Promise<void> {
    for (const agentId of agentIds) {
      if (!(await this.crew.isKnown(agentId)) && !(await this.org.inOrgFile(agentId))) throw hostErrors.AGENT_NOT_FOUND({ agentId });
    }
  }

  async assertRegistered(agentIds: readonly string[]): Promise<void> {
    for (const agentId of agentIds) {
      if ((await this.crew.registeredWithGateway(agentId)) === false) throw chatErrors.AGENT_NOT_REGISTERED({ agentId });
    }
  }

  role(agentId: string): Promise<string | null> {
    return this.org.role(agentId);
  }
}
