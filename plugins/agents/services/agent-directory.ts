import { stat } from "node:fs/promises";
import { atomically, type Database, type EventBus, type GatewayClient, type GatewayStatus, type HostInfo, type Logger } from "@muster/plugin";
import type { OrgStructure, WorkspaceMemory } from "../../memory/tokens.ts";
import { agentsErrors } from "../errors.ts";
import type { AgentHealthEntry, AgentRecord, Crew, EscalationTarget } from "../tokens.ts";
import { orgColumns, type AgentStore, type SyncResult } from "./agent-store.ts";
import { healthState, STATE_ORDER } from "./health-state.ts";
import type { SessionSnapshot } from "./session-snapshot.ts";
import { escalationFor } from "./escalation-chain.ts";
import { RETRY_FIRST_MS, RetrySoon } from "./retry-soon.ts";

/** A miss re-reads agents.list at most this often, so unknown ids cannot hammer the gateway. */
const MISS_REFRESH_MS = 2_000;
/** How long a computed health list is reused while nothing it derives from changed (states move by minutes). */
const HEALTH_REUSE_MS = 1_000;

export interface AgentDirectoryDeps {
  store: AgentStore;
  sessions: SessionSnapshot;
  gateway: GatewayClient;
  memory: WorkspaceMemory;
  events: EventBus;
  logger: Logger;
  host: HostInfo;
  /** The organisation file's absolute path (only its modification time is read here). */
  orgFile: string;
  /** Emojis as the organisation file writes them (its parser does not read them). */
  orgEmojis: () => Promise<ReadonlyMap<string, string>>;
  refreshMs: number;
  /**
   * Several instances serve the database (team mode): the agents table is then read on every
   * call, not cached, since another instance's write (an approved configuration, a re-synced
   * organisation file, a new agent) would not reach this process's cache.
   */
  shared: boolean;
  /** Team mode: how a registration on one instance makes the others read agents.list again. */
  db: () => Database;
}

/** PostgreSQL: an instance changed the gateway's agents (agents.create); the others re-read agents.list. */
const GATEWAY_AGENTS_CHANNEL = "agents_gateway_agents";

/** What tells a changed organisation file from the one last read: modification time and size. */
const fileStamp = (path: string) =>
  stat(path).then(
    (s) => `${s.mtimeMs}/${s.size}`,
    () => "absent",
  );

/**
 * The crew as Muster knows it (the {@link Crew} capability): the agents table (the
 * organisation file, parsed once per change and mirrored), the gateway's `agents.list`
 * (cached), and health from the cached sessions snapshot.
 */
export class AgentDirectoryService implements Crew {
  private gatewayAgents = new Map<string, { name: string | null; model: string | null }>();
  private loadedAt = 0;
  private refreshing: Promise<void> | undefined;
  private org: OrgStructure | null = null;
  /** The agents table, cached between writes: health is read far more often than the crew changes. */
  private records: Promise<AgentRecord[]> | undefined;
  private healthCache: { at: number; key: string; entries: AgentHealthEntry[] } | undefined;
  private recordsVersion = 0;
  private gatewayAgentsVersion = 0;
  /** The organisation file's stamp when it was last read; a miss re-reads a file whose stamp moved. */
  private syncedStamp: string | undefined;
  private readonly deps: AgentDirectoryDeps;
  private readonly retry: RetrySoon;
  constructor(deps: AgentDirectoryDeps) {
    this.deps = deps;
    this.retry = new RetrySoon({ firstMs: RETRY_FIRST_MS, maxMs: deps.refreshMs, retry: () => void this.refreshGatewayAgents() });
  }

  get owner(): string {
    return this.deps.host.owner;
  }

  get approvers(): readonly string[] {
    return this.deps.host.approvers;
  }

  /**
   * Keeps the gateway agent list fresh (and, in team mode, listens for another instance's
   * registrations); resolves to the function that stops it.
   */
  async start(): Promise<() => Promise<void>> {
    const offState = this.deps.gateway.onState((status) => {
      if (status.state === "connected") void this.refreshGatewayAgents();
    });
    const timer = setInterval(() => void this.refreshGatewayAgents(), this.deps.refreshMs);
    timer.unref();
    const listener = this.deps.shared ? await this.deps.db().listen?.(GATEWAY_AGENTS_CHANNEL, () => void this.refreshGatewayAgents(true)) : undefined;
    return async () => {
      offState();
      clearInterval(timer);
      this.retry.stop();
      await listener?.close();
    };
  }

  /**
   * After this instance changed the gateway's agents (an approved registration): agents.list
   * is read again here, and in team mode every other instance is told to, so that health's
   * `registered`, chat and council agree on whichever instance answers next.
   */
  async gatewayAgentsChanged(): Promise<void> {
    await this.refreshGatewayAgents(true);
    if (this.deps.shared) {
      await atomically(this.deps.db(), function* (tx) {
        yield* tx.get(`SELECT pg_notify('${GATEWAY_AGENTS_CHANNEL}', '')`);
      });
    }
  }

  /**
   * Re-reads the organisation file into the agents table and publishes `agents.records.synced`
   * when records changed (`publish`: not for the first read at start). A missing file empties
   * the table; an unreadable one keeps it as it is.
   */
  async sync(options: { publish: boolean } = { publish: true }): Promise<SyncResult | null> {
    const result = await this.readOrgFile();
    if (options.publish && result && result.added.length + result.removed.length + result.updated.length > 0) {
      this.deps.events.publish("agents.records.synced", result, { public: true });
    }
    return result;
  }

  private async readOrgFile(): Promise<SyncResult | null> {
    this.syncedStamp = await fileStamp(this.deps.orgFile);
    let org: OrgStructure;
    try {
      org = (await this.deps.memory.orgStructure()).org;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "ORG_FILE_NOT_FOUND") {
        this.org = null;
        const result = await this.deps.store.sync([], new Map(), new Date().toISOString());
        this.invalidate();
        return result;
      }
      this.deps.logger.warn({ err: error }, "the organisation file cannot be read; agent records keep their last synced state");
      return null;
    }
    this.org = org;
    const result = await this.deps.store.sync(org.agents.map(orgColumns), await this.deps.orgEmojis(), new Date().toISOString());
    this.invalidate();
    return result;
  }

  /** Drops the cached records after a write to the agents table. */
  invalidate(): void {
    this.records = undefined;
    this.recordsVersion += 1;
  }

  list(): Promise<AgentRecord[]> {
    if (this.deps.shared) return this.deps.store.list();
    this.records ??= this.deps.store.list().catch((error: unknown) => {
      this.records = undefined;
      throw error;
    });
    return this.records;
  }

  async get(id: string): Promise<AgentRecord | null> {
    return (await this.list()).find((a) => a.id === id) ?? null;
  }

  async isKnown(id: string): Promise<boolean> {
    if ((await this.get(id)) || this.gatewayAgents.has(id)) return true;
    if ((await this.syncIfChanged()) && (await this.get(id))) return true;
    if (Date.now() - this.loadedAt >= MISS_REFRESH_MS) await this.refreshGatewayAgents();
    return this.gatewayAgents.has(id);
  }

  async assertKnown(ids: readonly string[]): Promise<void> {
    for (const agentId of ids) if (!(await this.isKnown(agentId))) throw agentsErrors.AGENT_NOT_FOUND({ agentId });
  }

  async role(id: string): Promise<string | null> {
    await this.syncIfChanged();
    return (await this.get(id))?.role ?? null;
  }

  /**
   * Re-reads the organisation file when it changed since the last read (a stat, no parse
   * otherwise): an agent added or edited a moment ago, before the watcher reported the change.
   * True when it was read again.
   */
  private async syncIfChanged(): Promise<boolean> {
    if (this.syncedStamp === (await fileStamp(this.deps.orgFile))) return false;
    await this.sync();
    return true;
  }

  async registeredWithGateway(id: string): Promise<boolean | null> {
    if (this.gatewayAgents.has(id)) return true;
    if (Date.now() - this.loadedAt >= MISS_REFRESH_MS) await this.refreshGatewayAgents();
    return this.loadedAt === 0 ? null : this.gatewayAgents.has(id);
  }

  async assertRegistered(ids: readonly string[]): Promise<void> {
    for (const agentId of ids) if ((await this.registeredWithGateway(agentId)) === false) throw agentsErrors.AGENT_NOT_REGISTERED({ agentId });
  }

  /**
   * The agents of the organisation file the gateway's agents.list does not name, read fresh
   * (null when the list cannot be read: the gateway is not connected).
   */
  async unregistered(): Promise<AgentRecord[] | null> {
    await this.refreshGatewayAgents();
    if (this.deps.gateway.status().state !== "connected" || this.loadedAt === 0) return null;
    return (await this.list()).filter((r) => !this.gatewayAgents.has(r.id));
  }

  /** Whether the gateway's cached agents.list names the id (read fresh first when the gateway is up). */
  async knownToGateway(id: string): Promise<boolean> {
    await this.refreshGatewayAgents();
    return this.gatewayAgents.has(id);
  }

  gatewayStatus(): GatewayStatus {
    return this.deps.gateway.status();
  }

  /** The gateway an agent's calls go to, with several gateways (DESIGN §16); undefined with one. */
  gatewayOf(id: string): string | undefined {
    return this.deps.gateway.gatewayOf?.(id) ?? undefined;
  }

  /** Records with their gateway's name (an extra field, only with several gateways). */
  async listWithGateways(): Promise<(AgentRecord & { gateway?: string })[]> {
    const records = await this.list();
    if (!this.deps.gateway.gatewayOf) return records;
    return records.map((r) => this.withGateway(r));
  }

  withGateway<T extends { id: string }>(record: T): T & { gateway?: string } {
    const gateway = this.gatewayOf(record.id);
    return gateway === undefined ? record : { ...record, gateway };
  }

  /**
   * Whether the gateway link an agent is on is connected: with several gateways the link
   * that serves it (an agent no link names: any link), with one the gateway.
   */
  private connectedFor(): (id: string) => boolean {
    const links = this.deps.gateway.links?.();
    const any = this.deps.gateway.status().state === "connected";
    if (!links || links.length < 2 || !this.deps.gateway.gatewayOf) return () => any;
    const up = new Set(links.filter((l) => l.state === "connected").map((l) => l.name));
    return (id) => {
      const name = this.deps.gateway.gatewayOf!(id);
      return name === null ? any : up.has(name);
    };
  }

  /** Health of every known agent (table and gateway), in the spec's order. Never calls the gateway. */
  async healthAll(now = Date.now()): Promise<AgentHealthEntry[]> {
    const states = this.deps.gateway.links?.().map((l) => l.state).join(",") ?? this.deps.gateway.status().state;
    const key = `${states}/${this.deps.sessions.version}/${this.recordsVersion}/${this.gatewayAgentsVersion}`;
    const cached = this.healthCache;
    if (cached && cached.key === key && now - cached.at >= 0 && now - cached.at < HEALTH_REUSE_MS) return cached.entries;
    const entries = await this.computeHealth(now);
    this.healthCache = { at: now, key, entries };
    return entries;
  }

  private async computeHealth(now: number): Promise<AgentHealthEntry[]> {
    const records = await this.list();
    const connected = this.connectedFor();
    const entries = records.map((r) => this.entry(r.id, r.name, r.model, now, connected));
    const seen = new Set(records.map((r) => r.id));
    for (const [id, a] of this.gatewayAgents) if (!seen.has(id)) (seen.add(id), entries.push(this.entry(id, a.name ?? id, a.model, now, connected)));
    for (const id of this.deps.sessions.agentIds()) if (!seen.has(id)) (seen.add(id), entries.push(this.entry(id, id, null, now, connected)));
    return entries.sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async health(id: string, now = Date.now()): Promise<AgentHealthEntry | null> {
    const record = await this.get(id);
    if (record) return this.entry(id, record.name, record.model, now);
    const gatewayAgent = this.gatewayAgents.get(id);
    if (gatewayAgent) return this.entry(id, gatewayAgent.name ?? id, gatewayAgent.model, now);
    return this.deps.sessions.get(id) ? this.entry(id, id, null, now) : null;
  }

  /** The entry of a known agent with no record and no session yet (a gateway agent seen a moment ago). */
  healthOfUnseen(id: string, now = Date.now()): AgentHealthEntry {
    return this.entry(id, id, null, now);
  }

  async modelOf(agentId: string, sessionKey?: string): Promise<string | null> {
    const fromSession = sessionKey === undefined ? undefined : this.deps.sessions.modelOf(sessionKey);
    return fromSession ?? (await this.get(agentId))?.model ?? this.gatewayAgents.get(agentId)?.model ?? null;
  }

  async escalationFor(id: string): Promise<EscalationTarget | null> {
    const record = await this.get(id);
    if (!record) return null;
    return escalationFor(record, this.org, await this.list());
  }

  private entry(id: string, name: string, model: string | null, now: number, connected = this.connectedFor()): AgentHealthEntry {
    const sessions = this.deps.sessions.get(id);
    const last = sessions?.lastActivityMs ?? null;
    const idleMs = last === null ? null : Math.max(0, now - last);
    return {
      ...this.withGateway({ id }),
      name,
      state: healthState(idleMs, connected(id)),
      lastActivityMs: last,
      idleMinutes: idleMs === null ? null : Math.floor(idleMs / 60_000),
      model: sessions?.model ?? model,
      sessionCount: sessions?.sessionCount ?? 0,
      registered: this.loadedAt === 0 ? null : this.gatewayAgents.has(id),
    };
  }

  /**
   * One agents.list at a time; failures keep the old cache. `fresh`: a list already being read
   * may have been asked before the change that calls for this one, so this one waits for it
   * and reads again.
   */
  private async refreshGatewayAgents(fresh = false): Promise<void> {
    if (fresh && this.refreshing) await this.refreshing;
    if (this.deps.gateway.status().state !== "connected") return;
    this.refreshing ??= this.deps.gateway
      .call("agents.list", {}, { timeoutMs: 10_000 })
      .then((result) => {
        const agents = Array.isArray(result?.agents) ? result.agents : [];
        this.gatewayAgents = new Map(
          agents.flatMap((a) => (typeof a?.id === "string" ? [[a.id, { name: typeof a.name === "string" ? a.name : null, model: a.model?.primary ?? null }] as const] : [])),
        );
        this.loadedAt = Date.now();
        this.gatewayAgentsVersion += 1;
        this.retry.succeeded();
      })
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error }, "agents.list failed; keeping the cached agent list and reading it again soon");
        this.retry.failed();
      })
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }
}
