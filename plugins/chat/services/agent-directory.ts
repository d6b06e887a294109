import { hostErrors, type GatewayClient, type Logger } from "@muster/plugin";
import type { WorkspaceMemory } from "../../memory/tokens.ts";
import { chatErrors } from "../errors.ts";
import type { AgentDirectory } from "../tokens.ts";

/** A miss re-reads agents.list at most this often, so unknown ids cannot hammer the gateway. */
const MISS_REFRESH_MS = 2_000;

/**
 * Known agents (DESIGN §14): the gateway's `agents.list`, cached, re-read on every
 * (re)connection and every `refreshMs`, plus the organisation file when the memory plugin
 * is loaded. An id found in neither triggers one early re-read (an agent added a moment
 * ago) before it is refused.
 */
export class AgentDirectoryService implements AgentDirectory {
  private gatewayAgents = new Set<string>();
  private loadedAt = 0;
  private refreshing: Promise<void> | undefined;
  private readonly deps: { gateway: GatewayClient; memory: WorkspaceMemory | undefined; logger: Logger; refreshMs: number };
  constructor(deps: { gateway: GatewayClient; memory: WorkspaceMemory | undefined; logger: Logger; refreshMs: number }) {
    this.deps = deps;
  }

  /** Keeps the cache fresh; returns the function that stops it. */
  start(): () => void {
    const offState = this.deps.gateway.onState((status) => {
      if (status.state === "connected") void this.refresh();
    });
    const timer = setInterval(() => void this.refresh(), this.deps.refreshMs);
    timer.unref();
    return () => {
      offState();
      clearInterval(timer);
    };
  }

  async assertKnown(agentIds: readonly string[]): Promise<void> {
    const org = await this.orgAgents();
    for (const id of agentIds) {
      if (org.has(id) || this.gatewayAgents.has(id)) continue;
      if (Date.now() - this.loadedAt >= MISS_REFRESH_MS) await this.refresh();
      if (!this.gatewayAgents.has(id)) throw hostErrors.AGENT_NOT_FOUND({ agentId: id });
    }
  }

  async assertRegistered(agentIds: readonly string[]): Promise<void> {
    for (const id of agentIds) {
      if (this.gatewayAgents.has(id)) continue;
      if (Date.now() - this.loadedAt >= MISS_REFRESH_MS) await this.refresh();
      // Never read (not connected yet): the turn itself will say what the gateway thinks.
      if (this.loadedAt !== 0 && !this.gatewayAgents.has(id)) throw chatErrors.AGENT_NOT_REGISTERED({ agentId: id });
    }
  }

  /** Whether the organisation file names the agent (read now, not cached). */
  async inOrgFile(agentId: string): Promise<boolean> {
    return (await this.orgAgents()).has(agentId);
  }

  async role(agentId: string): Promise<string | null> {
    const org = await this.orgAgents();
    return org.get(agentId) ?? null;
  }

  /** Agent id → role from the organisation file; empty without the memory plugin, a file, or a readable one. */
  private async orgAgents(): Promise<Map<string, string | null>> {
    if (!this.deps.memory) return new Map();
    try {
      const { org } = await this.deps.memory.orgStructure();
      return new Map(org.agents.map((a) => [a.id, a.role]));
    } catch {
      // No file, or one the memory plugin refuses (it reports why at /api/org-structure).
      return new Map();
    }
  }

  /** One agents.list at a time; concurrent callers share it. Failures keep the old cache. */
  private refresh(): Promise<void> {
    if (this.deps.gateway.status().state !== "connected") return Promise.resolve();
    this.refreshing ??= this.deps.gateway
      .call("agents.list", {}, { timeoutMs: 10_000 })
      .then((result) => {
        const agents = Array.isArray(result?.agents) ? result.agents : [];
        this.gatewayAgents = new Set(agents.flatMap((a) => (typeof a?.id === "string" ? [a.id] : [])));
        this.loadedAt = Date.now();
      })
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, "agents.list failed; keeping the cached agent list"))
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }
}
