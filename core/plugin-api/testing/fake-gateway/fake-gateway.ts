// A protocol-faithful fake OpenClaw gateway (protocol v4, shared/reference/openclaw-gateway.md
// §5) on 127.0.0.1, for fast tests of everything that talks to the gateway. It speaks the
// observed wire format (challenge, closed connect params, scopes granted exactly as asked,
// hello-ok, two `res` frames for `agent`, cron events before their `res`, `shutdown` + 1012),
// and has hooks to make it misbehave (down, starting, wrong token, slow, silent, garbage).
//
// Usage:
//   const gw = await FakeGateway.start({ token: "t", tickIntervalMs: 200 });
//   const h = await startTestHost({ config: { gatewayUrl: gw.url, gatewayToken: "t" } });
//   gw.onChat((agentId, message) => ({ deltas: ["Hel", "lo"], delayMs: 5 }));
//   gw.received   // every frame the fake got: { conn, at, frame }
//   await gw.restart(); await gw.stop();
//
// This file is the connection side (listen, accept, frames in and out, stop and restart) and
// the method table; each protocol area keeps its own state in its own file: handshake.ts,
// agents.ts, chat.ts (sessions, chat, agent runs), cron.ts, approvals.ts.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import type { GatewayAgent, GatewayErrorShape, GatewaySessionRow } from "../../gateway.ts";
import { FakeAgents } from "./agents.ts";
import { APPROVAL_EVENTS, APPROVAL_METHODS, FakeApprovals } from "./approvals.ts";
import { FakeChat } from "./chat.ts";
import { CRON_METHODS, FakeCron } from "./cron.ts";
import { handshake, PREAUTH_MAX_BYTES } from "./handshake.ts";
import { hasScope, METHOD_SCOPES } from "./scopes.ts";
import {
  FAKE_PROTOCOL,
  FakeGatewayError,
  invalid,
  NO_RESPONSE,
  type FakeApproval,
  type FakeApprovalKind,
  type FakeConnection,
  type FakeGatewayOptions,
  type FakeMethodHandler,
  type FakeReplyHook,
  type ReceivedFrame,
} from "./types.ts";

export { FAKE_PROTOCOL, FakeGatewayError };
export type { FakeApproval, FakeApprovalKind, FakeConnection, FakeGatewayOptions, FakeMethodHandler, FakeReplyHook, ReceivedFrame };
export type { FakeReply, FakeReplyContext } from "./types.ts";

const EVENTS = ["connect.challenge", "agent", "chat", "cron", "tick", "shutdown", "health", "presence", "sessions.changed", ...APPROVAL_EVENTS];

export class FakeGateway {
  /** Every frame received, in order (the connect frames carry the token: tests only). */
  readonly received: ReceivedFrame[] = [];
  /** How each connection ended, as the fake saw it (the client's close code, e.g. 4000 on tick timeout). */
  readonly closes: { conn: number; code: number; reason: string }[] = [];
  /** Live connections. */
  readonly connections = new Set<FakeConnection>();
  /** Sockets opened so far (connection attempts that reached the WebSocket upgrade). */
  opened = 0;
  /** `connect` requests received so far. */
  connectAttempts = 0;
  token: string;
  tickIntervalMs: number;
  maxPayload: number;
  protocol: number;
  unavailableConnects: number;
  retryAfterMs: number;
  sendChallenge: boolean;
  requireDevice: boolean;
  requirePairing: boolean;
  answerPings: boolean;
  /** Device ids approved for {@link FakeGatewayOptions.requirePairing}. */
  readonly approvedDevices = new Set<string>();
  /** Device ids that asked to connect while not approved. */
  readonly pendingDevices = new Set<string>();
  /** Pending approval requests (kept across stop/start, as the real gateway's store is). */
  readonly approvals: Map<string, FakeApproval>;
  /** Every resolution, in order: by a client's resolve call or by {@link resolveApproval}. */
  readonly approvalResolutions: Array<{ id: string; decision: string; resolvedBy: string }>;
  private agents: FakeAgents;
  private chat: FakeChat;
  private cron: FakeCron;
  private approvalStore: FakeApprovals;
  private overrides = new Map<string, FakeMethodHandler>();
  private ticksPaused = false;
  private server: Server | undefined;
  private wss: WebSocketServer | undefined;
  private tickTimer: NodeJS.Timeout | undefined;
  private connCounter = 0;
  private listeningPort: number;

  private constructor(options: FakeGatewayOptions) {
    this.token = options.token ?? "fake-gateway-token";
    this.tickIntervalMs = options.tickIntervalMs ?? 30_000;
    this.maxPayload = options.maxPayload ?? 26_214_400;
    this.protocol = options.protocol ?? FAKE_PROTOCOL;
    this.unavailableConnects = options.unavailableConnects ?? 0;
    this.retryAfterMs = options.retryAfterMs ?? 500;
    this.sendChallenge = options.sendChallenge ?? true;
    this.requireDevice = options.requireDevice ?? false;
    this.requirePairing = options.requirePairing ?? false;
    this.answerPings = options.answerPings ?? true;
    this.listeningPort = options.port ?? 0;
    const broadcast = this.broadcast.bind(this);
    this.agents = new FakeAgents(options.agents);
    this.chat = new FakeChat(this.agents, broadcast, options);
    this.cron = new FakeCron(this.agents, broadcast);
    this.approvalStore = new FakeApprovals(broadcast);
    this.approvals = this.approvalStore.pending;
    this.approvalResolutions = this.approvalStore.resolutions;
  }

  /** Starts a fake gateway on 127.0.0.1 (port 0 unless given). */
  static async start(options: FakeGatewayOptions = {}): Promise<FakeGateway> {
    const gateway = new FakeGateway(options);
    await gateway.listen();
    return gateway;
  }

  get port(): number {
    return this.listeningPort;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.listeningPort}`;
  }

  /** Whether it is listening (false after stop/kill: connects get ECONNREFUSED). */
  get running(): boolean {
    return this.server !== undefined;
  }

  /** What `agents.list` answers now (agents.create adds to it). */
  get agentList(): readonly GatewayAgent[] {
    return this.agents.list;
  }

  setAgents(agents: GatewayAgent[]): void {
    this.agents.list = agents;
  }

  setSessions(rows: GatewaySessionRow[]): void {
    this.chat.sessions = rows;
  }

  /** Sets the reply hook of `chat.send` and `agent`. */
  onChat(hook: FakeReplyHook): void {
    this.chat.replyHook = hook;
  }

  /** Replaces a method (or adds one); `handler: undefined` restores the built-in. */
  override(method: string, handler: FakeMethodHandler | undefined): void {
    if (handler) this.overrides.set(method, handler);
    else this.overrides.delete(method);
  }

  /** The method answers after `ms` (as it would have answered). */
  delay(method: string, ms: number): void {
    this.override(method, async (params, call) => {
      await new Promise((r) => setTimeout(r, ms));
      return this.dispatch(call.conn, method, params, call.id);
    });
  }

  /** The method never answers. */
  neverAnswer(method: string): void {
    this.override(method, () => new Promise(() => {}));
  }

  /** The method answers `ok:false` with this error. */
  failWith(method: string, error: GatewayErrorShape): void {
    this.override(method, () => {
      throw new FakeGatewayError(error);
    });
  }

  /** Approves a device (as `openclaw devices approve <id>` would). */
  approveDevice(id: string): void {
    this.pendingDevices.delete(id);
    this.approvedDevices.add(id);
  }

  /** Stops (true) or resumes the `tick` events, to simulate a silent gateway. */
  pauseTicks(paused = true): void {
    this.ticksPaused = paused;
  }

  /** Sends a frame to every authenticated connection (object → JSON; string/Buffer raw). */
  sendToAll(frame: unknown): void {
    for (const conn of this.connections) if (conn.authenticated) conn.send(frame);
  }

  /** Broadcasts an event with the per-connection `seq`. */
  broadcast(event: string, payload: unknown, filter: (conn: FakeConnection) => boolean = () => true): void {
    for (const conn of this.connections) {
      if (conn.authenticated && filter(conn)) conn.send({ type: "event", event, payload, seq: ++conn.seq });
    }
  }

  /**
   * Raises an approval request as an agent run would: stored pending, and
   * `<kind>.approval.requested` sent to connections with `operator.admin`/`operator.approvals`
   * and the `approvals` cap (the real gateway's canDeliverApprovals).
   */
  raiseApproval(kind: FakeApprovalKind, request: Record<string, unknown>, options: { id?: string; timeoutMs?: number } = {}): FakeApproval {
    return this.approvalStore.raise(kind, request, options);
  }

  /** Resolves a pending request in the gateway itself (OpenClaw's own UI); false when not pending. */
  resolveApproval(id: string, decision: string, resolvedBy = "control-ui"): boolean {
    return this.approvalStore.resolve(id, decision, resolvedBy);
  }

  /** Drops a pending request without an event (it expired while nobody listened). */
  expireApproval(id: string): void {
    this.approvals.delete(id);
  }

  /** Closes every connection with this code (1006-like abrupt drop with `terminate: true`). */
  closeAll(code = 1011, reason = "fake close", terminate = false): void {
    for (const conn of this.connections) {
      if (terminate) conn.socket.terminate();
      else conn.socket.close(code, reason);
    }
  }

  /** Waits until `count` authenticated connections exist (default 1). */
  async waitForConnection(count = 1, timeoutMs = 5_000): Promise<FakeConnection> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const authed = [...this.connections].filter((c) => c.authenticated);
      if (authed.length >= count) return authed[authed.length - 1]!;
      if (Date.now() > deadline) throw new Error(`fake gateway: no authenticated connection within ${timeoutMs} ms (${this.connectAttempts} connect attempts)`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Received `req` frames of a method, in order. */
  requests(method: string): any[] {
    return this.received.filter((r) => r.frame?.type === "req" && r.frame.method === method).map((r) => r.frame);
  }

  /**
   * Stops as a real gateway does on SIGTERM: `shutdown` event, close 1012, stop listening.
   * `{ graceful: false }` drops every socket without a word (a crash).
   */
  async stop(options: { graceful?: boolean } = {}): Promise<void> {
    const graceful = options.graceful ?? true;
    clearInterval(this.tickTimer);
    this.tickTimer = undefined;
    this.chat.abortAll();
    for (const conn of this.connections) {
      if (graceful) {
        if (conn.authenticated) conn.send({ type: "event", event: "shutdown", payload: { reason: "gateway stopping" }, seq: ++conn.seq });
        conn.socket.close(1012, "service restart");
      } else conn.socket.terminate();
    }
    const server = this.server;
    const wss = this.wss;
    this.server = undefined;
    this.wss = undefined;
    if (!server || !wss) return;
    await new Promise<void>((r) => wss.close(() => r()));
    // Sockets that did not finish their close handshake quickly are dropped.
    const force = setTimeout(() => {
      for (const client of wss.clients) client.terminate();
      server.closeAllConnections();
    }, 200);
    await new Promise<void>((r) => server.close(() => r()));
    clearTimeout(force);
    this.connections.clear();
  }

  /** Stops and listens again on the same port (state such as cron jobs survives). */
  async restart(options: { graceful?: boolean; downMs?: number } = {}): Promise<void> {
    await this.stop(options);
    if (options.downMs) await new Promise((r) => setTimeout(r, options.downMs));
    await this.listen();
  }

  /** Listens again after {@link stop} on the same port. */
  async listen(): Promise<void> {
    if (this.server) return;
    const server = createServer((req, res) => {
      // The gateway shares its port with HTTP; /healthz and /readyz as observed.
      if (req.url === "/healthz") return void res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true,"status":"live"}');
      if (req.url === "/readyz") return void res.writeHead(200, { "content-type": "application/json" }).end('{"ready":true}');
      res.writeHead(404).end();
    });
    const wss = new WebSocketServer({ server, maxPayload: this.maxPayload, autoPong: false });
    wss.on("connection", (socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.listeningPort, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    this.listeningPort = (server.address() as AddressInfo).port;
    this.server = server;
    this.wss = wss;
    this.tickTimer = setInterval(() => {
      if (!this.ticksPaused) this.broadcast("tick", { ts: Date.now() });
    }, this.tickIntervalMs);
    this.tickTimer.unref();
  }

  private accept(socket: WebSocket): void {
    this.opened += 1;
    const conn: FakeConnection = {
      id: ++this.connCounter,
      socket,
      authenticated: false,
      scopes: [],
      caps: [],
      deviceId: null,
      subscribedSessions: false,
      seq: 0,
      send(frame) {
        if (socket.readyState !== socket.OPEN) return;
        socket.send(typeof frame === "string" || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame));
      },
    };
    this.connections.add(conn);
    socket.on("close", (code, reason) => {
      this.connections.delete(conn);
      this.closes.push({ conn: conn.id, code, reason: reason.toString() });
    });
    socket.on("error", () => {});
    socket.on("ping", (data) => {
      if (this.answerPings) socket.pong(data);
    });
    const challenge = { nonce: randomUUID(), ts: Date.now() };
    if (this.sendChallenge) conn.send({ type: "event", event: "connect.challenge", payload: { ...challenge, capabilities: ["model-catalog-snapshot"] } });
    socket.on("message", (data, isBinary) => {
      const text = isBinary ? Buffer.from(data as Buffer).toString("utf8") : data.toString();
      let frame: any;
      try {
        frame = JSON.parse(text);
      } catch {
        this.received.push({ conn: conn.id, at: Date.now(), frame: text });
        return;
      }
      this.received.push({ conn: conn.id, at: Date.now(), frame });
      if (!conn.authenticated) {
        if (Buffer.byteLength(text) > PREAUTH_MAX_BYTES) return void socket.close(1009, "pre-auth frame too large");
        return void handshake(this, conn, frame, challenge, () => this.helloFacts());
      }
      if (frame?.type !== "req" || typeof frame.id !== "string" || typeof frame.method !== "string") return;
      void this.handle(conn, frame);
    });
  }

  private async handle(conn: FakeConnection, frame: { id: string; method: string; params?: unknown }): Promise<void> {
    const { id, method } = frame;
    const params = (frame.params ?? {}) as any;
    try {
      const override = this.overrides.get(method);
      const needed = METHOD_SCOPES[method];
      if (needed && !hasScope(conn.scopes, needed)) {
        throw new FakeGatewayError({ code: "FORBIDDEN", message: `missing scope: ${needed}`, details: { code: "MISSING_SCOPE", missingScope: needed, requiredScopes: [needed] } });
      }
      const payload = override ? await override(params, { conn, id, method }) : await this.dispatch(conn, method, params, id);
      if (payload !== NO_RESPONSE) conn.send({ type: "res", id, ok: true, payload });
    } catch (error) {
      const shape = error instanceof FakeGatewayError ? error.shape : { code: "UNAVAILABLE", message: String((error as Error)?.message ?? error) };
      conn.send({ type: "res", id, ok: false, error: shape });
    }
  }

  /** The built-in methods, by protocol area. */
  private async dispatch(conn: FakeConnection, method: string, params: any, id: string): Promise<unknown> {
    if (CRON_METHODS.includes(method)) return this.cron.method(method, params);
    if (APPROVAL_METHODS.includes(method)) return this.approvalStore.method(method, params, conn);
    switch (method) {
      case "health":
        return this.healthPayload();
      case "status":
        return { runtimeVersion: "fake-2026.9.6", sessions: { count: this.chat.sessionRows().length }, pid: process.pid };
      case "node.list":
        return { ts: Date.now(), nodes: [] };
      case "agents.list":
        return this.agents.listPayload();
      case "agents.create":
        return this.agents.create(params);
      case "sessions.list":
        return this.chat.sessionsList(params);
      case "sessions.subscribe":
        conn.subscribedSessions = true;
        return { subscribed: true };
      case "chat.send":
        return this.chat.chatSend(params);
      case "chat.abort":
        return this.chat.chatAbort(params);
      case "chat.history":
        return this.chat.chatHistory(params);
      case "agent":
        this.chat.agentMethod(conn, id, params);
        return NO_RESPONSE;
      case "agent.wait":
        return this.chat.agentWait(params);
      default:
        throw invalid(`unknown method: ${method}`);
    }
  }

  private helloFacts() {
    return { methods: [...Object.keys(METHOD_SCOPES), ...this.overrides.keys()], events: EVENTS, health: this.healthPayload(), defaultAgentId: this.agents.defaultId ?? "main" };
  }

  private healthPayload() {
    const sessions = this.chat.sessionRows();
    return {
      ok: true,
      ts: Date.now(),
      durationMs: 1,
      defaultAgentId: this.agents.defaultId,
      agents: this.agents.list.map((a, i) => ({
        agentId: a.id,
        name: a.name,
        isDefault: i === 0,
        sessions: { count: sessions.filter((s) => s.agentId === a.id).length },
      })),
    };
  }
}
