import { hostErrors, type ApprovalGate, type GateRequestResult, type GatewayClient, type WorkspacePaths } from "@muster/plugin";
import { agentsErrors } from "../errors.ts";
import type { AgentDirectoryService } from "./agent-directory.ts";
import { agentDir } from "./agent-files.ts";
import { REGISTER_ACTION, type RegisterPayload } from "./gated-actions.ts";

export interface RegisterMissingResult {
  /** The agents the approval will register, in the organisation file's order. */
  agents: string[];
  approval: GateRequestResult;
}

/**
 * Reconciles the organisation file with the gateway's agents.list: the agents of the file the
 * gateway does not know (the crew scaffolded at first start, an entry written by hand) are
 * registered with ONE pending `agents.register` approval, the action the factory and packs use.
 */
export class CrewRegistration {
  private readonly deps: { directory: AgentDirectoryService; gateway: GatewayClient; gate: ApprovalGate; workspace: WorkspacePaths; requestedBy: string };
  constructor(deps: { directory: AgentDirectoryService; gateway: GatewayClient; gate: ApprovalGate; workspace: WorkspacePaths; requestedBy: string }) {
    this.deps = deps;
  }

  async requestMissing(): Promise<RegisterMissingResult> {
    // Which agents are missing is only known from a fresh agents.list.
    await this.deps.gateway.ready(0);
    const missing = await this.deps.directory.unregistered();
    if (missing === null) throw hostErrors.GATEWAY_UNAVAILABLE({ reason: "its agents.list could not be read" });
    if (missing.length === 0) throw agentsErrors.AGENTS_ALL_REGISTERED();
    const payload: RegisterPayload = {
      agents: missing.map((a) => ({ agentId: a.id, name: a.name, model: a.model ?? "", emoji: a.emoji, workspace: this.deps.workspace.resolve(agentDir(a.id)) })),
    };
    const ids = missing.map((a) => a.id);
    const approval = await this.deps.gate.request(REGISTER_ACTION, payload, {
      requestedBy: this.deps.requestedBy,
      title: `Register ${ids.length} agent${ids.length === 1 ? "" : "s"} of the organisation file with OpenClaw`,
      context: `The gateway's agents.list does not name ${ids.join(", ")}; approving adds each to the gateway (agents.create). Agents registered meanwhile are skipped.`,
    });
    return { agents: ids, approval };
  }
}
