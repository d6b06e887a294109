import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { GatewayClient, WorkspacePaths } from "@muster/plugin";
import { agentsErrors } from "../errors.ts";
import type { AgentHealthEntry } from "../tokens.ts";
import type { AgentDirectoryService } from "./agent-directory.ts";
import { agentDir, DEFAULT_HEARTBEAT } from "./agent-files.ts";

export interface HeartbeatResult {
  agent: AgentHealthEntry;
  checkedAt: string;
  /** Whether the agent was sent its heartbeat prompt. */
  nudged: boolean;
  /** Why no prompt was sent although one was asked for. */
  reason?: string;
  runId?: string;
}

/** `POST /api/heartbeat`: an agent's health now; with `nudge`, a stalled or stuck agent gets its `HEARTBEAT.md` prompt. */
export class Heartbeat {
  private readonly deps: { directory: AgentDirectoryService; gateway: GatewayClient; workspace: WorkspacePaths };
  constructor(deps: { directory: AgentDirectoryService; gateway: GatewayClient; workspace: WorkspacePaths }) {
    this.deps = deps;
  }

  async check(agentId: string, nudge: boolean): Promise<HeartbeatResult> {
    await this.deps.directory.assertKnown([agentId]);
    const agent = (await this.deps.directory.health(agentId)) ?? (await this.deps.directory.healthOfUnseen(agentId));
    const checkedAt = new Date().toISOString();
    if (!nudge) return { agent, checkedAt, nudged: false };
    if (agent.state !== "stalled" && agent.state !== "stuck") return { agent, checkedAt, nudged: false, reason: `the agent is ${agent.state}; only stalled or stuck agents are nudged` };
    const message = await readFile(this.deps.workspace.resolve(`${agentDir(agentId)}/HEARTBEAT.md`), "utf8").catch(() => DEFAULT_HEARTBEAT);
    const sent = await this.deps.gateway.call("chat.send", { sessionKey: `agent:${agentId}:main`, agentId, message, idempotencyKey: randomUUID() }, { timeoutMs: 15_000 });
    return { agent, checkedAt, nudged: true, runId: sent.runId };
  }
}
