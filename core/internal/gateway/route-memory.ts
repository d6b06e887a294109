// What the gateway router knows of where things live: each link's agents (from its
// `agents.list` or `health`) and the ids a link produced (run ids, cron job ids, approval
// ids, session keys), so that a follow-up call goes back to the gateway that knows the id.
import type { Logger } from "pino";

/** Ids remembered at most; the oldest are forgotten first (a long-running host must not grow without bound). */
const ID_LIMIT = 50_000;

export class RouteMemory {
  /** Link names in configured order: the first one naming an agent wins. */
  private readonly order: readonly string[];
  private readonly agentsByLink = new Map<string, Set<string>>();
  private readonly ids = new Map<string, string>();
  private readonly warnedShared = new Set<string>();
  private readonly logger: Logger;

  constructor(order: readonly string[], logger: Logger) {
    this.order = order;
    this.logger = logger;
  }

  /** Replaces a link's agent ids with the ones its latest list names. */
  learnAgents(link: string, agentIds: Iterable<string>): void {
    const ids = new Set(agentIds);
    this.agentsByLink.set(link, ids);
    for (const id of ids) {
      const owners = this.order.filter((name) => this.agentsByLink.get(name)?.has(id));
      if (owners.length < 2 || this.warnedShared.has(id)) continue;
      this.warnedShared.add(id);
      this.logger.warn({ agentId: id, gateways: owners, routedTo: owners[0] }, "an agent id is on several gateways; its calls go to the first configured one");
    }
  }

  /** The first link (configured order) whose agents include the id, or null. */
  gatewayOf(agentId: string): string | null {
    for (const name of this.order) if (this.agentsByLink.get(name)?.has(agentId)) return name;
    return null;
  }

  /** Remembers that an id (run, job, approval, session key) came from a link. */
  remember(link: string, id: unknown): void {
    if (typeof id !== "string" || id.length === 0 || id.length > 512) return;
    this.ids.delete(id);
    this.ids.set(id, link);
    if (this.ids.size > ID_LIMIT) this.ids.delete(this.ids.keys().next().value!);
  }

  linkOfId(id: unknown): string | null {
    return typeof id === "string" ? (this.ids.get(id) ?? null) : null;
  }
}

/** The agent a call names: `agentId`, else the `<id>` of a session key `agent:<id>:…`. */
export function agentOfParams(params: Record<string, unknown>): string | null {
  if (typeof params.agentId === "string" && params.agentId) return params.agentId;
  return agentOfSessionKey(params.sessionKey);
}

export function agentOfSessionKey(key: unknown): string | null {
  if (typeof key !== "string") return null;
  const match = /^agent:([^:]+):/.exec(key);
  return match ? match[1]! : null;
}

/** The ids a result or an event payload carries that later calls may name. */
export function idsIn(value: unknown, event?: string): unknown[] {
  if (!value || typeof value !== "object") return [];
  const v = value as Record<string, unknown>;
  const ids = [v.runId, v.jobId, v.sessionKey];
  // A cron.add result, and an approval request (its id is what the resolve call names).
  if (event === undefined || event.endsWith(".approval.requested")) ids.push(v.id);
  return ids;
}
