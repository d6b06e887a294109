// `agents.list` and `agents.create`: the fake's crew, and which agent a request names.
import type { GatewayAgent } from "../../gateway.ts";
import { invalid } from "./types.ts";

export class FakeAgents {
  list: GatewayAgent[];

  constructor(agents: GatewayAgent[] = [{ id: "main", name: "Main", model: { primary: "fake/fake-model" } }]) {
    this.list = agents;
  }

  /** The default agent (the first), as `agents.list` reports it. */
  get defaultId(): string | undefined {
    return this.list[0]?.id;
  }

  listPayload() {
    return { defaultId: this.defaultId, ownership: this.list.length > 1 ? "explicit" : "sole", mainKey: "main", scope: "per-sender", agents: this.list };
  }

  /** `agents.create {name, workspace, emoji?, model?}`: the id is derived from `name`; an id that exists is refused. */
  create(params: any) {
    if (typeof params.name !== "string" || !params.name.trim()) throw invalid("invalid agents.create params: must have required property 'name'");
    if (typeof params.workspace !== "string" || !params.workspace) throw invalid("invalid agents.create params: must have required property 'workspace'");
    const agentId = params.name.trim().toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
    if (this.list.some((a) => a.id === agentId)) throw invalid(`agent "${agentId}" already exists`);
    const agent: GatewayAgent = { id: agentId, name: params.name, workspace: params.workspace };
    if (typeof params.model === "string") agent.model = { primary: params.model };
    if (typeof params.emoji === "string") agent.identity = { emoji: params.emoji };
    this.list = [...this.list, agent];
    return { ok: true, agentId, name: params.name, workspace: params.workspace };
  }

  /** The agent a request names (its `agentId`, its session key's, or the only one); refused when unknown. */
  resolve(agentId: unknown, sessionKey: unknown): string {
    const fromKey = typeof sessionKey === "string" ? /^agent:([^:]+):/.exec(sessionKey)?.[1] : undefined;
    const resolved = (typeof agentId === "string" ? agentId : undefined) ?? fromKey ?? (this.list.length === 1 ? this.list[0]!.id : undefined);
    if (!resolved) throw invalid("Multiple agents are configured, but no agent was selected. Pass agentId or use an agent-prefixed session key.");
    if (!this.list.some((a) => a.id === resolved)) throw invalid(`Agent "${resolved}" no longer exists in configuration`);
    return resolved;
  }
}
