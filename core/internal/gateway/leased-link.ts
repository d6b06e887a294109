// One gateway link per deployment (issue 25, DESIGN §16): in team mode several instances serve
// one database, but a gateway should see one operator client, not one per instance. So one
// live instance holds the link's lease (a row of muster_gateway_leases, taken over by a
// conditional update when its holder's heartbeat in muster_instances stops, by the database's
// clock) and alone connects. Every other instance forwards `call`, `request` and `agent` to it
// through the database (forwarded-calls.ts) and receives its events and state changes in order
// (relayed-events.ts), so plugins on any instance see the GatewayClient contract unchanged.
// A holder that stops gives the lease back at once; one that dies loses it when the registry
// counts it dead (5 s), and the next check of a live instance (every second) takes it.
// On SQLite (one process) or with GATEWAY_URL=off there is no lease: the plain client.
import type { Logger } from "pino";
import type { DatabaseListener } from "../../plugin-api/context.ts";
import type { GatewayAgentAccepted, GatewayAgentFinal, GatewayClient, GatewayHello, GatewayLinkStatus, GatewayMethods, GatewayStatus } from "../../plugin-api/gateway.ts";
import type { Instances } from "../../plugin-api/instances.ts";
import type { OpenedDatabase } from "../database.ts";
import type { HostGatewayClient } from "./client.ts";
import { LinkListeners } from "./link-listeners.ts";
import { CallForwarder, CallServer } from "./forwarded-calls.ts";
import { LINK_CHANNEL, LinkTables, STATE_EVENT, type LeaseRow } from "./lease-tables.ts";
import { notConnectedError } from "./not-connected.ts";
import { EventRelay } from "./relayed-events.ts";

/** How often each instance checks the lease (and takes it from a dead holder). */
const CHECK_MS = 1_000;
/** The holder removes forwarded calls left behind (their callers gone) every this many checks (10 minutes). */
const PRUNE_CALLS_EVERY = 600;
/** How long a stopping holder waits for the answers of calls it was making for others. */
const DRAIN_MS = 2_000;

export interface TeamLinkDeps {
  db: OpenedDatabase;
  instances: Instances;
}

export interface LeasedLinkOptions {
  /** The link's name (one lease per link; the single link of today is "default"). */
  name: string;
  /** A new, unstarted client of this link; called again each time this instance takes the lease. */
  connect: () => HostGatewayClient;
  /** The database and instance registry, read at `start()` (they exist from then on). */
  team: () => TeamLinkDeps;
  /** The default per-call timeout of forwarded calls (`gateway.requestTimeoutMs`). */
  requestTimeoutMs: number;
  logger: Logger;
}

/** The host's link: leased when `team` is given (PostgreSQL) and the gateway is not off, else the plain client. */
export function gatewayLink(options: Omit<LeasedLinkOptions, "team"> & { team: (() => TeamLinkDeps) | null }): HostGatewayClient {
  const client = options.connect();
  if (!options.team || client.status().state === "disabled") return client;
  return createLeasedGatewayLink({ ...options, team: options.team }, client);
}

export function createLeasedGatewayLink(options: LeasedLinkOptions, first?: HostGatewayClient): HostGatewayClient {
  return new LeasedGatewayLink(options, first ?? options.connect());
}

interface RelayedState {
  status: GatewayStatus;
  hello: GatewayHello | null;
}

class LeasedGatewayLink extends LinkListeners implements HostGatewayClient {
  private readonly options: LeasedLinkOptions;
  private readonly logger: Logger;
  private current: GatewayStatus;
  private relayedHello: GatewayHello | null = null;
  /** The next client to start (unstarted; also where the status's URL comes from). */
  private spare: HostGatewayClient | undefined;
  /** Set while this instance holds the lease. */
  private holding: { client: HostGatewayClient; off: (() => void)[] } | undefined;
  private holder: string | null = null;
  private team: (TeamLinkDeps & { tables: LinkTables; forwarder: CallForwarder; server: CallServer; relay: EventRelay }) | undefined;
  private listener: DatabaseListener | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private checkAgain = false;
  private lastChecked = Date.now();
  private checksHolding = 0;
  private started = false;
  private stopped = false;

  constructor(options: LeasedLinkOptions, first: HostGatewayClient) {
    const logger = options.logger.child({ link: options.name });
    super(logger);
    this.options = options;
    this.logger = logger;
    this.spare = first;
    this.current = { ...first.status(), state: "connecting" };
  }

  // ---- lifecycle -------------------------------------------------------------------------

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    const attempt = () =>
      void this.begin().catch((error: unknown) => {
        this.logger.error({ err: error }, "the gateway link's lease could not be set up; retried in a second");
        if (!this.stopped) setTimeout(attempt, CHECK_MS).unref();
      });
    attempt();
  }

  private async begin(): Promise<void> {
    const { db, instances } = this.options.team();
    const tables = new LinkTables(db, this.options.name);
    const relay = new EventRelay(tables, instances.id, this.logger, (event, payload) => this.delivered(event, payload));
    this.team = { db, instances, tables, relay, forwarder: new CallForwarder(tables, this.logger, instances.deadAfterMs), server: new CallServer(tables, instances.id, this.logger) };
    await relay.skipToTop();
    this.listener = await db.listen!(LINK_CHANNEL, (payload) => this.woken(payload));
    if (this.stopped) return void (await this.listener.close());
    this.timer = setInterval(() => void this.check(), CHECK_MS);
    this.timer.unref();
    await this.check();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    await this.checking;
    const team = this.team;
    if (team) {
      if (this.holding) {
        await this.letGo();
        await team.tables.release(team.instances.id).catch((error: unknown) => this.logger.warn({ err: error }, "the gateway link's lease was not released; another instance takes it once this one's heartbeat stops"));
      }
      team.forwarder.rejectAll("Muster is stopping");
      await this.listener?.close();
    }
    await this.spare?.stop();
    this.stateListeners.clear();
  }

  // ---- the lease -------------------------------------------------------------------------

  /** A NOTIFY for this link: a call for the holder, an answer for a caller, new events, a released lease. */
  private woken(payload: string): void {
    const team = this.team;
    if (!team || this.stopped) return;
    if (payload === "") {
      // The listening link (re)connected: what was notified meanwhile is read from the tables.
      void this.check();
      if (this.holding) void team.server.take(null);
      else void team.relay.read();
      return;
    }
    const [kind, link, id] = payload.split("\t");
    if (link !== this.options.name) return;
    if (kind === "call" && this.holding) void team.server.take(id!);
    else if (kind === "reply") void team.forwarder.onReply(id!);
    else if (kind === "events" && !this.holding) void team.relay.read();
    else if (kind === "lease") void this.check();
  }

  /** Reads the lease (taking it from a dead holder or when free) and acts on who holds it; one check at a time. */
  private check(): Promise<void> {
    if (this.checking) {
      this.checkAgain = true;
      return this.checking;
    }
    this.checking = (async () => {
      do {
        this.checkAgain = false;
        await this.checkOnce();
      } while (this.checkAgain && !this.stopped);
    })().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    const team = this.team;
    if (!team || this.stopped) return;
    let lease: LeaseRow;
    try {
      lease = await team.tables.claim(team.instances.id, team.instances.deadAfterMs);
    } catch (error) {
      this.logger.warn({ err: error }, "the gateway link's lease could not be read");
      // Cut off from the database for nearly as long as others wait before taking over: let go.
      if (this.holding && Date.now() - this.lastChecked > team.instances.deadAfterMs - CHECK_MS) {
        await this.letGo();
        this.follow(null, null);
      }
      return;
    }
    this.lastChecked = Date.now();
    if (this.stopped) return;
    if (lease.holder === team.instances.id) {
      if (!this.holding) this.hold();
    } else {
      if (this.holding) await this.letGo();
      if (lease.holder !== this.holder) this.follow(lease.holder, lease.state);
    }
    this.holder = lease.holder;
    team.forwarder.checkHolder(lease.holder);
    if (this.holding && ++this.checksHolding % PRUNE_CALLS_EVERY === 0) void team.tables.pruneCalls().catch((error: unknown) => this.logger.debug({ err: error }, "old forwarded calls not pruned"));
  }

  /** This instance took the lease: it connects, relays its events and state, and serves forwarded calls. */
  private hold(): void {
    const team = this.team!;
    const client = this.spare ?? this.options.connect();
    this.spare = undefined;
    this.logger.info({ instance: team.instances.id }, "this instance holds the gateway link");
    const off = [
      client.onAny((event, payload) => {
        this.streams.emit(event, payload);
        team.relay.write(event, payload);
      }),
      client.onState((status) => {
        const hello = client.hello();
        this.setState(status, hello);
        team.relay.write(STATE_EVENT, { status, hello } satisfies RelayedState);
      }),
    ];
    this.holding = { client, off };
    this.holder = team.instances.id;
    client.start();
    team.server.serve(client);
  }

  /** Stops holding: the connection closes (its calls fail), the answers of forwarded calls are written. */
  private async letGo(): Promise<void> {
    const team = this.team!;
    const holding = this.holding;
    if (!holding) return;
    this.holding = undefined;
    for (const off of holding.off) off();
    await holding.client.stop();
    await team.server.drain(DRAIN_MS);
    await team.relay.idle();
    await team.relay.skipToTop().catch(() => undefined);
    this.spare = this.options.connect();
    this.logger.info("this instance no longer holds the gateway link");
  }

  /** Another instance holds the lease (or none, null): its last known state until its events say more. */
  private follow(holder: string | null, stateJson: string | null): void {
    const relayed = stateJson ? (JSON.parse(stateJson) as RelayedState) : null;
    if (relayed) return this.setState(relayed.status, relayed.hello);
    const lastError = holder ? "another instance took the gateway link and is connecting" : "no instance holds the gateway link";
    this.setState({ state: "connecting", url: this.current.url, since: new Date().toISOString(), lastError }, null);
  }

  /** A relayed row: a state change of the holder's connection, or a gateway event. */
  private delivered(event: string, payload: unknown): void {
    if (this.holding) return;
    if (event === STATE_EVENT) {
      const { status, hello } = payload as RelayedState;
      return this.setState(status, hello);
    }
    this.streams.emit(event, payload);
  }

  private setState(status: GatewayStatus, hello: GatewayHello | null): void {
    const changed = status.state !== this.current.state;
    this.current = { ...status };
    this.relayedHello = hello;
    if (changed) this.notifyAll();
  }

  // ---- the GatewayClient contract --------------------------------------------------------

  status(): GatewayStatus {
    return this.holding ? this.holding.client.status() : { ...this.current };
  }

  links(): GatewayLinkStatus[] {
    return [{ name: this.options.name, ...this.status() }];
  }

  hello(): GatewayHello | null {
    if (this.holding) return this.holding.client.hello();
    return this.current.state === "connected" && this.relayedHello ? { ...this.relayedHello } : null;
  }

  protected mayConnect(): boolean {
    return !this.stopped;
  }

  call<M extends keyof GatewayMethods>(method: M, params: GatewayMethods[M]["params"], options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<GatewayMethods[M]["result"]> {
    if (this.holding) return this.holding.client.call(method, params, options);
    return this.forward(method, params, options ?? {}, false) as Promise<GatewayMethods[M]["result"]>;
  }

  request(method: string, params: unknown, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<unknown> {
    if (this.holding) return this.holding.client.request(method, params, options);
    return this.forward(method, params, options, false);
  }

  agent(params: GatewayMethods["agent"]["params"], options: Parameters<GatewayClient["agent"]>[1] = {}): Promise<GatewayAgentFinal> {
    if (this.holding) return this.holding.client.agent(params, options);
    return this.forward("agent", params, options, true, options.onAccepted) as Promise<GatewayAgentFinal>;
  }

  private forward(method: string, params: unknown, options: { timeoutMs?: number; signal?: AbortSignal }, twoStage: boolean, onAccepted?: (accepted: GatewayAgentAccepted) => void): Promise<unknown> {
    // As the client: a call while not connected fails at once.
    if (this.current.state !== "connected" || !this.holder || !this.team) return Promise.reject(notConnectedError(this.status()));
    if (typeof method !== "string" || method.length === 0) return Promise.reject(new TypeError("gateway method must be a non-empty string"));
    return this.team.forwarder.send(this.holder, method, params, { ...options, timeoutMs: options.timeoutMs ?? this.options.requestTimeoutMs }, twoStage, onAccepted);
  }
}
