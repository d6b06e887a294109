// Several gateways behind the one GatewayClient plugins hold (DESIGN §16): a call goes to
// the link of the agent it names (`agentId`, or a session key `agent:<id>:…`), else to the
// link that produced the id it names (a run, a cron job, an approval), else, for the list
// methods, to every connected link (answers merged, rows tagged `gateway`), else to the
// first (default) link. Events of every link reach the subscribers, tagged the same way.
//
// The aggregate state is `connected` while any link is: the plugins gate their work on it,
// and with one gateway of two away the other's agents must keep working; a call to an agent
// of a link that is away fails alone with that link's 503. `links()` gives each link's state.
import type { Logger } from "pino";
import type { GatewayAgentAccepted, GatewayAgentFinal, GatewayClient, GatewayHello, GatewayLinkStatus, GatewayMethods, GatewayState, GatewayStatus } from "../../plugin-api/gateway.ts";
import { hostErrors } from "../../plugin-api/errors.ts";
import type { HostGatewayClient } from "./client.ts";
import { EventStreams } from "./event-streams.ts";
import { waitForConnected } from "./wait-connected.ts";
import { isApprovalList, isFanOut, mergeAgents, mergeApprovalLists, mergeHealth, mergeStatus, pageOf, PAGED_LISTS, readAllPages, type LinkAnswer } from "./fan-out.ts";
import { agentOfParams, agentOfSessionKey, idsIn, RouteMemory } from "./route-memory.ts";

/** One gateway link as the router holds it. */
export interface NamedGatewayLink {
  name: string;
  client: HostGatewayClient;
}

type Options = { timeoutMs?: number; signal?: AbortSignal };

/** How long a merged paged list is reused by the calls that walk its later pages. */
const PAGE_WALK_MS = 5_000;
/** An agent no link serves sends the links a new agents.list at most this often. */
const RELEARN_EVERY_MS = 1_000;
/** Which state the aggregate shows when no link is connected: the most hopeful first. */
const WHEN_NONE_CONNECTED: GatewayState[] = ["connecting", "down", "unauthorized", "disabled"];

/** The client plugins use: the one link itself when there is one (nothing in between), else a router over the links. */
export function createGatewayRouter(links: NamedGatewayLink[], logger: Logger): HostGatewayClient {
  if (links.length === 1) return links[0]!.client;
  return new GatewayRouter(links, logger);
}

class GatewayRouter implements HostGatewayClient {
  private readonly all: NamedGatewayLink[];
  private readonly byName: Map<string, NamedGatewayLink>;
  private readonly memory: RouteMemory;
  private readonly streams: EventStreams;
  private readonly logger: Logger;
  private readonly upstream = new Set<string>();
  private readonly upstreamOff: (() => void)[] = [];
  private readonly stateListeners = new Set<(status: GatewayStatus) => void>();
  private readonly pageWalks = new Map<string, { at: number; rows: unknown[] }>();
  /** Each link's latest agents.list answer: a link that is away keeps its agents known (offline), not forgotten. */
  private readonly lastAgents = new Map<string, unknown>();
  private aggregate: GatewayStatus;
  private relearning: Promise<void> | null = null;
  private lastRelearnAt = 0;

  constructor(links: NamedGatewayLink[], logger: Logger) {
    this.all = links;
    this.byName = new Map(links.map((l) => [l.name, l]));
    this.logger = logger;
    this.memory = new RouteMemory(links.map((l) => l.name), logger);
    this.streams = new EventStreams(logger);
    this.aggregate = this.computeAggregate(new Date().toISOString());
    for (const link of links) {
      this.upstreamOff.push(
        link.client.onState((status) => {
          if (status.state === "connected") void this.learnAgentsOf(link);
          this.onLinkState();
        }),
      );
    }
  }

  // ---- lifecycle and state ---------------------------------------------------------------

  start(): void {
    for (const link of this.all) link.client.start();
  }

  async stop(): Promise<void> {
    for (const off of this.upstreamOff.splice(0)) off();
    await Promise.all(this.all.map((l) => l.client.stop()));
    this.stateListeners.clear();
  }

  status(): GatewayStatus {
    return { ...this.aggregate };
  }

  links(): GatewayLinkStatus[] {
    return this.all.map((l) => ({ name: l.name, ...l.client.status() }));
  }

  gatewayOf(agentId: string): string | null {
    return this.memory.gatewayOf(agentId);
  }

  hello(): GatewayHello | null {
    for (const link of this.all) {
      const hello = link.client.hello();
      if (hello) return hello;
    }
    return null;
  }

  onState(listener: (status: GatewayStatus) => void): () => void {
    this.stateListeners.add(listener);
    this.notify(listener);
    return () => this.stateListeners.delete(listener);
  }

  ready(timeoutMs = 0): Promise<void> {
    if (this.aggregate.state === "connected") return Promise.resolve();
    // The default link's refusal says why (unavailable or unauthorized) in the usual words.
    const refusal = () => this.all[0]!.client.ready(0);
    if (timeoutMs <= 0) return refusal();
    return waitForConnected((listener) => this.onState(listener), timeoutMs, refusal);
  }

  private onLinkState(): void {
    const next = this.computeAggregate(this.aggregate.since);
    this.aggregate = next.state === this.aggregate.state ? next : { ...next, since: new Date().toISOString() };
    // Every link's change is told, even when the aggregate stays: listeners re-read what the link that came back holds.
    for (const listener of [...this.stateListeners]) this.notify(listener);
  }

  private computeAggregate(since: string): GatewayStatus {
    const all = this.links();
    const away = all.filter((l) => l.state !== "connected");
    const connected = all.find((l) => l.state === "connected");
    const lead = connected ?? WHEN_NONE_CONNECTED.map((state) => all.find((l) => l.state === state)).find(Boolean) ?? all[0]!;
    const state = connected ? "connected" : lead.state === "disabled" && away.some((l) => l.state !== "disabled") ? "down" : lead.state;
    const awayText = away.filter((l) => l.state !== "disabled").map((l) => `${l.name} ${l.state}${l.lastError ? ` (${l.lastError})` : ""}`);
    const lastError = connected && awayText.length ? `not connected: ${awayText.join("; ")}` : connected ? connected.lastError : lead.lastError;
    return { state, url: lead.url, since, ...(lastError ? { lastError } : {}) };
  }

  private notify(listener: (status: GatewayStatus) => void): void {
    try {
      listener(this.status());
    } catch (error) {
      this.logger.warn({ err: error }, "a gateway state listener threw; ignored");
    }
  }

  // ---- calls -----------------------------------------------------------------------------

  call<M extends keyof GatewayMethods>(method: M, params: GatewayMethods[M]["params"], options?: Options): Promise<GatewayMethods[M]["result"]> {
    return this.route(method, params, options) as Promise<GatewayMethods[M]["result"]>;
  }

  request(method: string, params: unknown, options?: Options): Promise<unknown> {
    return this.route(method, params, options);
  }

  async agent(params: GatewayMethods["agent"]["params"], options: Parameters<GatewayClient["agent"]>[1] = {}): Promise<GatewayAgentFinal> {
    const link = await this.linkForCall(params as unknown as Record<string, unknown>);
    const onAccepted = (accepted: GatewayAgentAccepted) => {
      this.memory.remember(link.name, accepted?.runId);
      options.onAccepted?.(accepted);
    };
    return link.client.agent(params, { ...options, onAccepted }).then((final) => this.learnFrom(link.name, final));
  }

  private async route(method: string, params: unknown, options?: Options): Promise<unknown> {
    const p = params && typeof params === "object" ? (params as Record<string, unknown>) : {};
    if (isFanOut(method) && !agentOfParams(p)) return this.fanOut(method, p, options);
    const link = await this.linkForCall(p);
    return this.learnFrom(link.name, await link.client.request(method, params, options));
  }

  /**
   * {@link linkFor}, after asking the connected links for their agents again when the call
   * names an agent no link is known to serve: the list asked on a link's connect may have
   * failed (in team mode the instance holding the link may still be taking it) or predate the
   * agent. Once at a time and at most once a second, so an agent no gateway has costs calls
   * nothing more than before (it goes to the default link, whose answer says so).
   */
  private async linkForCall(p: Record<string, unknown>): Promise<NamedGatewayLink> {
    const agent = agentOfParams(p);
    if (agent !== null && this.memory.gatewayOf(agent) === null) await this.relearnAgents();
    return this.linkFor(p);
  }

  private relearnAgents(): Promise<void> {
    if (this.relearning) return this.relearning;
    if (Date.now() - this.lastRelearnAt < RELEARN_EVERY_MS) return Promise.resolve();
    this.lastRelearnAt = Date.now();
    const connected = this.all.filter((l) => l.client.status().state === "connected");
    this.relearning = Promise.all(connected.map((l) => this.learnAgentsOf(l))).then(() => {
      this.relearning = null;
    });
    return this.relearning;
  }

  /** The link a call goes to: its agent's, else the one that produced the id it names, else the default. */
  private linkFor(p: Record<string, unknown>): NamedGatewayLink {
    const agent = agentOfParams(p);
    const byAgent = agent === null ? null : this.memory.gatewayOf(agent);
    const name = byAgent ?? this.memory.linkOfId(p.runId) ?? this.memory.linkOfId(p.id) ?? this.memory.linkOfId(p.jobId) ?? this.memory.linkOfId(p.sessionKey);
    return (name && this.byName.get(name)) || this.all[0]!;
  }

  private learnFrom<T>(name: string, result: T): T {
    for (const id of idsIn(result)) this.memory.remember(name, id);
    return result;
  }

  private async fanOut(method: string, params: Record<string, unknown>, options?: Options): Promise<unknown> {
    const live = this.all.filter((l) => l.client.status().state === "connected");
    // None connected: the default link refuses in its usual words. A partial approval list is refused too.
    if (live.length === 0) return this.all[0]!.client.request(method, params, options);
    if (isApprovalList(method) && live.length < this.all.length) {
      const away = this.all.filter((l) => !live.includes(l)).map((l) => l.name);
      throw hostErrors.GATEWAY_UNAVAILABLE({ reason: `gateway ${away.join(", ")} is not connected, and a list without it would settle its requests` });
    }
    if (method in PAGED_LISTS) return pageOf(method, await this.mergedRows(method, params, live, options), params);
    const answers = await this.answersOf(live, (link) => link.client.request(method, params, options));
    if (method === "agents.list") {
      for (const { name, result } of answers) this.learnAgents(name, result);
      const away = this.all.filter((l) => !live.includes(l) && this.lastAgents.has(l.name)).map((l) => ({ name: l.name, result: this.lastAgents.get(l.name) }));
      return mergeAgents(this.inOrder([...answers, ...away]));
    }
    if (method === "health") return mergeHealth(answers);
    if (method === "status") return mergeStatus(answers);
    const merged = mergeApprovalLists(answers);
    for (const row of merged) this.memory.remember((row as { gateway: string }).gateway, (row as { id?: unknown }).id);
    return merged;
  }

  /** The answers of the live links; a link that fails is left out (logged), unless all fail. */
  private async answersOf(live: NamedGatewayLink[], ask: (link: NamedGatewayLink) => Promise<unknown>): Promise<LinkAnswer[]> {
    const settled = await Promise.allSettled(live.map(async (link) => ({ name: link.name, result: await ask(link) })));
    const answers = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    const failed = settled.flatMap((s, i) => (s.status === "rejected" ? [{ name: live[i]!.name, error: s.reason as unknown }] : []));
    if (answers.length === 0) throw failed[0]!.error;
    for (const f of failed) this.logger.warn({ err: f.error, gateway: f.name }, "a gateway did not answer a merged list; listed without it");
    return answers;
  }

  private async mergedRows(method: string, params: Record<string, unknown>, live: NamedGatewayLink[], options?: Options): Promise<unknown[]> {
    const { offset: _offset, limit: _limit, ...rest } = params;
    const key = `${method} ${JSON.stringify(rest)}`;
    const walk = this.pageWalks.get(key);
    const offset = typeof params.offset === "number" ? params.offset : 0;
    if (offset > 0 && walk && Date.now() - walk.at < PAGE_WALK_MS) return walk.rows;
    const answers = await this.answersOf(live, (link) => readAllPages(method, rest, link.name, (p) => link.client.request(method, p, options)));
    const rows = answers.flatMap((a) => a.result as unknown[]);
    for (const row of rows) {
      const r = row as Record<string, unknown>;
      this.memory.remember(r.gateway as string, method === "cron.list" ? r.id : r.key);
    }
    this.pageWalks.set(key, { at: Date.now(), rows });
    return rows;
  }

  private inOrder(answers: LinkAnswer[]): LinkAnswer[] {
    const index = (name: string) => this.all.findIndex((l) => l.name === name);
    return answers.sort((a, b) => index(a.name) - index(b.name));
  }

  private learnAgents(name: string, result: unknown): void {
    const agents = (result as { agents?: unknown })?.agents;
    if (!Array.isArray(agents)) return;
    this.lastAgents.set(name, result);
    this.memory.learnAgents(name, agents.flatMap((a) => (typeof a?.id === "string" ? [a.id as string] : [])));
  }

  /** On a link's (re)connect: which agents it serves now. */
  private async learnAgentsOf(link: NamedGatewayLink): Promise<void> {
    try {
      this.learnAgents(link.name, await link.client.call("agents.list", {}, { timeoutMs: 10_000 }));
    } catch (error) {
      this.logger.warn({ err: error, gateway: link.name }, "agents.list failed on connect; this gateway's agents are learnt on the next list");
    }
  }

  // ---- events ----------------------------------------------------------------------------

  on(event: string, listener: (payload: any) => void): () => void {
    this.subscribeUpstream(event);
    return this.streams.on(event, listener);
  }

  events(event: string, options?: { signal?: AbortSignal; bufferLimit?: number }): AsyncIterable<any> {
    this.subscribeUpstream(event);
    return this.streams.events(event, options);
  }

  /** Every event of every link, tagged with its gateway (the host interface; nothing above the router relays). */
  onAny(listener: (event: string, payload: unknown) => void): () => void {
    const offs = this.all.map((link) => link.client.onAny((event, payload) => listener(event, tagged(payload, link.name))));
    return () => {
      for (const off of offs) off();
    };
  }

  /** One subscription per event name on every link, kept for the router's life (cheap, and ids are learnt once per event). */
  private subscribeUpstream(event: string): void {
    if (this.upstream.has(event)) return;
    this.upstream.add(event);
    for (const link of this.all) {
      this.upstreamOff.push(
        link.client.on(event, (payload: unknown) => {
          for (const id of idsIn(payload, event)) this.memory.remember(link.name, id);
          const agent = agentOfSessionKey((payload as { sessionKey?: unknown } | null)?.sessionKey);
          if (agent && this.memory.gatewayOf(agent) === null) this.memory.remember(link.name, (payload as { sessionKey: string }).sessionKey);
          this.streams.emit(event, tagged(payload, link.name));
        }),
      );
    }
  }
}

/** An object payload with the gateway it came from; anything else as it is. */
function tagged(payload: unknown, gateway: string): unknown {
  return payload && typeof payload === "object" && !Array.isArray(payload) ? { ...payload, gateway } : payload;
}
