import { readFile } from "node:fs/promises";
import type { ApprovalGate, GateRequestResult, WorkspacePaths } from "@muster/plugin";
import { agentsErrors } from "../errors.ts";
import type { AgentRecord } from "../tokens.ts";
import type { AgentDirectoryService } from "./agent-directory.ts";
import { agentDir, agentFiles } from "./agent-files.ts";
import { filesWriteFailed, type CrewWriter } from "./crew-writer.ts";
import { findPersonaTemplate, listPersonaTemplates, PERSONA_TIERS, templateFile, type PersonaTemplate } from "./persona-templates.ts";
import { REGISTER_ACTION, type RegisterPayload } from "./gated-actions.ts";

/** The spec's factory body (DESIGN §14.5), plus optional `role` and `skills`. */
export interface FactoryRequest {
  templateId: string;
  name: string;
  agentId: string;
  model: string;
  emoji?: string | null;
  squad?: string | null;
  reportsTo?: string | null;
  role?: string;
  skills?: string[];
}

export interface FactoryResult {
  agent: AgentRecord;
  files: string[];
  approval: GateRequestResult;
}

/**
 * Creates an agent from a persona template: its workspace files and organisation entry
 * (atomically), then a pending `agents.register` approval; approving it adds the agent to
 * the gateway. An id that exists anywhere is refused before anything is written.
 */
export class AgentFactory {
  private readonly deps: { workspace: WorkspacePaths; directory: AgentDirectoryService; writer: CrewWriter; gate: ApprovalGate; requestedBy: string };
  constructor(deps: { workspace: WorkspacePaths; directory: AgentDirectoryService; writer: CrewWriter; gate: ApprovalGate; requestedBy: string }) {
    this.deps = deps;
  }

  templates(): Promise<PersonaTemplate[]> {
    return listPersonaTemplates(this.deps.workspace);
  }

  create(request: FactoryRequest): Promise<FactoryResult> {
    return this.deps.writer.exclusive(async () => {
      const taken = await this.deps.writer.takenBy([request.agentId]);
      if (taken) throw agentsErrors.AGENT_ALREADY_EXISTS({ agentId: taken.id, where: taken.where });
      const template = await findPersonaTemplate(this.deps.workspace, request.templateId);
      if (!template) throw agentsErrors.AGENT_TEMPLATE_NOT_FOUND({ templateId: request.templateId });
      if (request.reportsTo) await this.deps.directory.assertKnown([request.reportsTo]);
      const persona = await readFile(templateFile(this.deps.workspace, template), "utf8");
      const entry = {
        id: request.agentId,
        name: request.name,
        tier: PERSONA_TIERS[template.tier],
        role: request.role ?? template.id.replace(/-/g, "_"),
        model: request.model,
        emoji: request.emoji ?? null,
        squad: request.squad ?? null,
        reports_to: request.reportsTo ?? null,
        manages: [],
        skills: request.skills ?? [],
      };
      const written = await this.deps.writer.apply(
        { entries: [entry], files: agentFiles(entry, persona, `Created by the Muster agent factory from the persona template ${template.path}.`), directories: [] },
        filesWriteFailed,
      );
      const payload: RegisterPayload = { agents: [{ agentId: entry.id, name: entry.name, model: entry.model, emoji: entry.emoji, workspace: this.deps.workspace.resolve(agentDir(entry.id)) }] };
      let approval: GateRequestResult;
      try {
        approval = await this.deps.gate.request(REGISTER_ACTION, payload, {
          requestedBy: this.deps.requestedBy,
          title: `Register agent ${entry.id} with OpenClaw`,
          context: `Created from the persona template ${template.path}; approving adds it to the gateway's configuration (agents.create).`,
        });
      } catch (error) {
        // Without its approval the agent could never be registered: take the files back.
        await written.undo();
        throw error;
      }
      const agent = await this.deps.directory.get(entry.id);
      if (!agent) throw filesWriteFailed(new Error("the new agent did not reach the agents table"));
      return { agent, files: written.files, approval };
    });
  }
}
