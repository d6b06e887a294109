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
import { createHash, createPublicKey, randomUUID, verify } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import type { GatewayAgent, GatewayErrorShape, GatewaySessionRow } from "../../core/plugin-api/gateway.ts";

export const FAKE_PROTOCOL = 4;

/** What a chat/agent run answers. A thrown error becomes a chat `error` event. */
export type FakeReply =
  | string
  | {
      /** The reply streamed as these increments (joined = the final text). */
      deltas?: string[];
      /** Or the whole text in one delta. */
      text?: string;
      /** Pause before each delta (ms). */
      delayMs?: number;
      usage?: { input: number; output: number };
      /** Fail the run with a chat `error` event after the deltas. */
      error?: string;
    };

export interface FakeReplyContext {
  runId: string;
  /** Aborted by `chat.abort` or the fake stopping. */
  signal: AbortSignal;
}

/** Produces an agent's reply; may be async. Default: `Reply from <agentId>: <message>` in two deltas. */
export type FakeReplyHook = (agentId: string, message: string, sessionKey: string, ctx: FakeReplyContext) => FakeReply | Promise<FakeReply>;

/** One frame the fake received. `frame` is the parsed JSON, or the raw text when it was not JSON. */
export interface ReceivedFrame {
  /** Connection number (1, 2, … per fake, across restarts). */
  conn: number;
  at: number;
  frame: any;
}

/** Replaces a method's behaviour; return the payload, throw a {@link FakeGatewayError} for `ok:false`. */
export type FakeMethodHandler = (params: any, call: { conn: FakeConnection; id: string; method: string }) => unknown | Promise<unknown>;

export class FakeGatewayError extends Error {
  readonly shape: GatewayErrorShape;
  constructor(shape: GatewayErrorShape) {
    super(shape.message);
    this.shape = shape;
  }
}

export interface FakeGatewayOptions {
  /** The shared token; `auth.token` or `auth.password` must equal it (default "fake-gateway-token"). */
  token?: string;
  /** Listen on this port (default 0: a free one). */
  port?: number;
  /** `policy.tickIntervalMs` and the tick timer (default 30,000; use ~100–300 in tests). */
  tickIntervalMs?: number;
  /** `policy.maxPayload` (default 26,214,400). */
  maxPayload?: number;
  /** `agents.list` (default one agent, `main`). */
  agents?: GatewayAgent[];
  /** Extra `sessions.list` rows (chat sends add their own rows too). */
  sessions?: GatewaySessionRow[];
  reply?: FakeReplyHook;
  /** The protocol the fake speaks (default 4). */
  protocol?: number;
  /** Answer the first N connects with `UNAVAILABLE startup-sidecars` and close 1013. */
  unavailableConnects?: number;
  /** `retryAfterMs` of those answers (default 500 as observed; tests pass less). */
  retryAfterMs?: number;
  /** Skip the `connect.challenge` event (to test the client's challenge timeout). */
  sendChallenge?: boolean;
  /** Simulate a remote gateway: a device-less client gets `scopes: []` (reference §2.2). */
  requireDevice?: boolean;
  /** Answer WebSocket pings (default true); false plays a half-open connection. */
  answerPings?: boolean;
  /** A device must be approved ({@link FakeGateway.approveDevice}) before it may connect; until then NOT_PAIRED. */
  requirePairing?: boolean;
}

export interface FakeConnection {
  readonly id: number;
  readonly socket: WebSocket;
  authenticated: boolean;
  scopes: string[];
  /** `connect.params.caps`: `approvals` makes the gateway deliver approval events to it. */
  caps: string[];
  /** Set when the client signed the challenge with a device identity. */
  deviceId: string | null;
  subscribedSessions: boolean;
  seq: number;
  /** Sends a frame (object → JSON; string/Buffer as is). */
  send(frame: unknown): void;
}

interface Run {
  runId: string;
  sessionKey: string;
  agentId: string;
  controller: AbortController;
  text: string;
  done: Promise<{ status: string; text: string }>;
}

const CLIENT_IDS = new Set([
  "webchat-ui", "openclaw-control-ui", "openclaw-browser-copilot", "openclaw-tui", "webchat", "cli", "gateway-client", "openclaw-macos",
  "openclaw-linux", "openclaw-ios", "openclaw-watchos", "openclaw-android", "node-host", "openclaw-worker", "test", "fingerprint", "openclaw-probe",
]);
const CLIENT_MODES = new Set(["webchat", "cli", "ui", "backend", "node", "worker", "probe", "test"]);
const CONNECT_KEYS = new Set(["minProtocol", "maxProtocol", "client", "role", "scopes", "caps", "commands", "permissions", "pathEnv", "auth", "device", "locale", "userAgent"]);
const CLIENT_KEYS = new Set(["id", "version", "platform", "mode", "displayName", "buildId", "deviceFamily", "modelIdentifier", "timeZone", "instanceId"]);
const AUTH_KEYS = new Set(["token", "password", "deviceToken", "bootstrapToken", "approvalRuntimeToken", "agentRuntimeIdentityToken"]);
const PREAUTH_MAX_BYTES = 64 * 1024;

/** Scope each method needs (reference §2.4). */
const METHOD_SCOPES: Record<string, string> = {
  health: "operator.read",
  status: "operator.read",
  "agents.list": "operator.read",
  "sessions.list": "operator.read",
  "sessions.subscribe": "operator.read",
  "chat.history": "operator.read",
  "cron.list": "operator.read",
  "cron.status": "operator.read",
  "cron.runs": "operator.read",
  "node.list": "operator.read",
  "chat.send": "operator.write",
  "chat.abort": "operator.write",
  "agent.wait": "operator.write",
  agent: "operator.write",
  "agents.create": "operator.admin",
  "cron.add": "operator.admin",
  "cron.update": "operator.admin",
  "cron.remove": "operator.admin",
  "cron.run": "operator.admin",
  "exec.approval.list": "operator.approvals",
  "exec.approval.resolve": "operator.approvals",
  "plugin.approval.list": "operator.approvals",
  "plugin.approval.resolve": "operator.approvals",
  "approval.resolve": "operator.approvals",
};

/** An approval kind as the gateway names its events (`openclaw` is its `system-agent` kind). */
export type FakeApprovalKind = "exec" | "plugin" | "openclaw";
/** A pending approval request held by the fake (the real one's record: id, request, times). */
export interface FakeApproval {
  kind: FakeApprovalKind;
  id: string;
  request: Record<string, unknown>;
  createdAtMs: number;
  expiresAtMs: number;
}
/** The resolve method of each kind (the real gateway's `*.approval.resolve`; `approval.resolve` for system-agent). */
const RESOLVE_METHODS: Record<string, FakeApprovalKind> = { "exec.approval.resolve": "exec", "plugin.approval.resolve": "plugin", "approval.resolve": "openclaw" };
const APPROVAL_EVENTS = ["exec", "plugin", "openclaw"].flatMap((k) => [`${k}.approval.requested`, `${k}.approval.resolved`]);
const APPROVAL_DECISIONS = new Set(["allow-once", "allow-always", "deny"]);

function hasScope(granted: string[], needed: string): boolean {
  if (granted.includes(needed) || granted.includes("operator.admin")) return true;
  return needed === "operator.read" && granted.includes("operator.write");
}

const invalid = (message: string, details?: GatewayErrorShape["details"]): FakeGatewayError =>
  new FakeGatewayError({ code: "INVALID_REQUEST", message, ...(details ? { details } : {}) });

const defaultReply: FakeReplyHook = (agentId, message) => {
  const text = `Reply from ${agentId}: ${message}`;
  const half = Math.ceil(text.length / 2);
  return { deltas: [text.slice(0, half), text.slice(half)] };
};

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
  private agents: GatewayAgent[];
  private sessions: GatewaySessionRow[];
  private autoSessions = new Map<string, GatewaySessionRow>();
  private history = new Map<string, Array<Record<string, unknown>>>();
  private replyHook: FakeReplyHook;
  private overrides = new Map<string, FakeMethodHandler>();
  private runs = new Map<string, Run>();
  private cronJobs = new Map<string, Record<string, unknown> & { id: string }>();
  private cronRuns: Array<Record<string, unknown>> = [];
  private cronRunCount = 0;
  private ticksPaused = false;
  /** Pending approval requests (kept across stop/start, as the real gateway's store is). */
  readonly approvals = new Map<string, FakeApproval>();
  /** Every resolution, in order: by a client's resolve call or by {@link resolveApproval}. */
  readonly approvalResolutions: Array<{ id: string; decision: string; resolvedBy: string }> = [];
  private server: Server | undefined;
  private wss: WebSocketServer | undefined;
  private tickTimer: NodeJS.Timeout | undefined;
  private connCounter = 0;
  private listeningPort: number;

  private constructor(options: FakeGatewayOptions) {
    this.token = options.token ?? "fake-gateway-token";
    this.tickIntervalMs = options.tickIntervalMs ?? 30_000;
    this.maxPayload = options.maxPayload ?? 26_214_400;
    this.agents = options.agents ?? [{ id: "main", name: "Main", model: { primary: "fake/fake-model" } }];
    this.sessions = options.sessions ?? [];
    this.replyHook = options.reply ?? defaultReply;
    this.protocol = options.protocol ?? FAKE_PROTOCOL;
    this.unavailableConnects = options.unavailableConnects ?? 0;
    this.retryAfterMs = options.retryAfterMs ?? 500;
    this.sendChallenge = options.sendChallenge ?? true;
    this.requireDevice = options.requireDevice ?? false;
    this.requirePairing = options.requirePairing ?? false;
    this.answerPings = options.answerPings ?? true;
    this.listeningPort = options.port ?? 0;
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
    return this.agents;
  }

  setAgents(agents: GatewayAgent[]): void {
    this.agents = agents;
  }

  setSessions(rows: GatewaySessionRow[]): void {
    this.sessions = rows;
  }

  /** Sets the reply hook of `chat.send` and `agent`. */
  onChat(hook: FakeReplyHook): void {
    this.replyHook = hook;
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
    const createdAtMs = Date.now();
    const approval: FakeApproval = { kind, id: options.id ?? randomUUID(), request, createdAtMs, expiresAtMs: createdAtMs + (options.timeoutMs ?? 30 * 60_000) };
    this.approvals.set(approval.id, approval);
    this.sendApprovalEvent(kind, "requested", { id: approval.id, request, createdAtMs, expiresAtMs: approval.expiresAtMs });
    return approval;
  }

  /** Resolves a pending request in the gateway itself (OpenClaw's own UI); false when not pending. */
  resolveApproval(id: string, decision: string, resolvedBy = "control-ui"): boolean {
    const approval = this.approvals.get(id);
    if (!approval) return false;
    this.approvals.delete(id);
    this.approvalResolutions.push({ id, decision, resolvedBy });
    this.sendApprovalEvent(approval.kind, "resolved", { id, decision, resolvedBy, ts: Date.now(), request: approval.request });
    return true;
  }

  /** Drops a pending request without an event (it expired while nobody listened). */
  expireApproval(id: string): void {
    this.approvals.delete(id);
  }

  private sendApprovalEvent(kind: FakeApprovalKind, phase: "requested" | "resolved", payload: unknown): void {
    const canDeliver = (conn: FakeConnection) => hasScope(conn.scopes, "operator.approvals") && conn.caps.includes("approvals");
    this.broadcast(`${kind}.approval.${phase}`, payload, canDeliver);
  }

  private approvalMethod(method: string, params: any, conn: FakeConnection): unknown {
    if (method.endsWith(".list")) {
      const kind = method.split(".")[0] as FakeApprovalKind;
      return [...this.approvals.values()].filter((a) => a.kind === kind).map(({ id, request, createdAtMs, expiresAtMs }) => ({ id, request, createdAtMs, expiresAtMs }));
    }
    if (typeof params.id !== "string" || !params.id) throw invalid(`invalid ${method} params: must have required property 'id'`);
    if (!APPROVAL_DECISIONS.has(params.decision)) throw invalid("invalid decision");
    const approval = this.approvals.get(params.id);
    if (!approval || approval.kind !== RESOLVE_METHODS[method]) throw invalid("unknown or expired approval id", { reason: "APPROVAL_NOT_FOUND" });
    this.resolveApproval(params.id, params.decision, `conn-${conn.id}`);
    return { ok: true };
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
    for (const run of this.runs.values()) run.controller.abort();
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
        return void this.handshake(conn, frame, challenge);
      }
      if (frame?.type !== "req" || typeof frame.id !== "string" || typeof frame.method !== "string") return;
      void this.handle(conn, frame);
    });
  }

  private handshake(conn: FakeConnection, frame: any, challenge: { nonce: string; ts: number }): void {
    const id = typeof frame?.id === "string" ? frame.id : "0";
    const refuse = (error: GatewayErrorShape, code: number) => {
      conn.send({ type: "res", id, ok: false, error });
      conn.socket.close(code, error.message.slice(0, 120));
    };
    if (frame?.type !== "req" || frame.method !== "connect") {
      return refuse({ code: "INVALID_REQUEST", message: "invalid handshake: first request must be connect" }, 1008);
    }
    this.connectAttempts += 1;
    const params = frame.params ?? {};
    const badKey = [...Object.keys(params)].find((k) => !CONNECT_KEYS.has(k));
    if (badKey) return refuse({ code: "INVALID_REQUEST", message: `invalid connect params: at root: unexpected property '${badKey}'` }, 1008);
    const client = params.client ?? {};
    const badClientKey = Object.keys(client).find((k) => !CLIENT_KEYS.has(k));
    if (badClientKey) return refuse({ code: "INVALID_REQUEST", message: `invalid connect params: at /client: unexpected property '${badClientKey}'` }, 1008);
    if (!CLIENT_IDS.has(client.id)) return refuse({ code: "INVALID_REQUEST", message: "invalid connect params: at /client/id: must be equal to one of the allowed values" }, 1008);
    if (!CLIENT_MODES.has(client.mode)) return refuse({ code: "INVALID_REQUEST", message: "invalid connect params: at /client/mode: must be equal to one of the allowed values" }, 1008);
    const auth = params.auth ?? {};
    const badAuthKey = Object.keys(auth).find((k) => !AUTH_KEYS.has(k));
    if (badAuthKey) return refuse({ code: "INVALID_REQUEST", message: `invalid connect params: at /auth: unexpected property '${badAuthKey}'` }, 1008);
    if (this.unavailableConnects > 0) {
      this.unavailableConnects -= 1;
      return refuse(
        { code: "UNAVAILABLE", message: "gateway starting; retry shortly", retryable: true, retryAfterMs: this.retryAfterMs, details: { reason: "startup-sidecars" } },
        1013,
      );
    }
    const min = params.minProtocol;
    const max = params.maxProtocol;
    if (!(Number.isInteger(min) && Number.isInteger(max) && min <= this.protocol && this.protocol <= max)) {
      return refuse(
        {
          code: "INVALID_REQUEST",
          message: "protocol mismatch",
          details: { code: "PROTOCOL_MISMATCH", clientMinProtocol: min, clientMaxProtocol: max, expectedProtocol: this.protocol, minimumProbeProtocol: 3 },
        },
        1002,
      );
    }
    const presented = auth.token ?? auth.password;
    if (presented !== this.token) {
      return refuse(
        {
          code: "INVALID_REQUEST",
          message: "unauthorized: gateway token mismatch (provide gateway auth token)",
          details: { code: "AUTH_TOKEN_MISMATCH", authReason: "token_mismatch", canRetryWithDeviceToken: false, recommendedNextStep: "update_auth_credentials" },
        },
        1008,
      );
    }
    const role = params.role ?? "operator";
    const requested: string[] = Array.isArray(params.scopes) ? params.scopes : [];
    let deviceId: string | null = null;
    if (params.device) {
      const problem = verifyDevice(params.device, { ...params, role, scopes: requested, auth }, challenge);
      if (problem) return refuse({ code: "INVALID_REQUEST", message: `device signature invalid: ${problem}`, details: { code: "DEVICE_AUTH_INVALID" } }, 1008);
      deviceId = params.device.id as string;
      if (this.requirePairing && !this.approvedDevices.has(deviceId)) {
        this.pendingDevices.add(deviceId);
        return refuse({ code: "NOT_PAIRED", message: "device pairing required", details: { code: "PAIRING_REQUIRED", deviceId } }, 1008);
      }
    } else if (role === "node") {
      return refuse({ code: "NOT_PAIRED", message: "device identity required", details: { code: "DEVICE_IDENTITY_REQUIRED" } }, 1008);
    }
    // Loopback gateway-client/backend keeps its scopes without a device; a "remote" one does not.
    const scopes = !deviceId && this.requireDevice ? [] : requested;
    conn.authenticated = true;
    conn.scopes = scopes;
    conn.caps = Array.isArray(params.caps) ? params.caps : [];
    conn.deviceId = deviceId;
    conn.send({
      type: "res",
      id,
      ok: true,
      payload: {
        type: "hello-ok",
        protocol: this.protocol,
        server: { version: "fake-2026.9.6", connId: randomUUID() },
        features: { methods: [...Object.keys(METHOD_SCOPES), ...this.overrides.keys()], events: ["connect.challenge", "agent", "chat", "cron", "tick", "shutdown", "health", "presence", "sessions.changed", ...APPROVAL_EVENTS] },
        snapshot: {
          presence: [],
          health: this.healthPayload(),
          stateVersion: { presence: 1, health: 1 },
          uptimeMs: 1000,
          sessionDefaults: { defaultAgentId: this.agents[0]?.id ?? "main", mainKey: "main", mainSessionKey: `agent:${this.agents[0]?.id ?? "main"}:main` },
        },
        auth: { method: "token", role, scopes, ...(deviceId ? { deviceToken: `device-token-${deviceId.slice(0, 8)}`, issuedAtMs: Date.now() } : {}) },
        policy: { maxPayload: this.maxPayload, maxBufferedBytes: 52_428_800, tickIntervalMs: this.tickIntervalMs },
      },
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

  private async dispatch(conn: FakeConnection, method: string, params: any, id: string): Promise<unknown> {
    switch (method) {
      case "health":
        return this.healthPayload();
      case "status":
        return { runtimeVersion: "fake-2026.9.6", sessions: { count: this.sessionRows().length }, pid: process.pid };
      case "agents.list":
        return { defaultId: this.agents[0]?.id, ownership: this.agents.length > 1 ? "explicit" : "sole", mainKey: "main", scope: "per-sender", agents: this.agents };
      case "agents.create":
        return this.agentsCreate(params);
      case "sessions.list":
        return this.sessionsList(params);
      case "sessions.subscribe":
        conn.subscribedSessions = true;
        return { subscribed: true };
      case "chat.send":
        return this.chatSend(params);
      case "chat.abort":
        return this.chatAbort(params);
      case "chat.history": {
        if (typeof params.sessionKey !== "string") throw invalid("invalid chat.history params: must have required property 'sessionKey'");
        const messages = this.history.get(params.sessionKey) ?? [];
        const limit = typeof params.limit === "number" ? params.limit : 200;
        return { sessionKey: params.sessionKey, messages: messages.slice(-limit), hasMore: messages.length > limit, totalMessages: messages.length };
      }
      case "agent":
        this.agentMethod(conn, id, params);
        return NO_RESPONSE;
      case "agent.wait":
        return this.agentWait(params);
      case "cron.list":
      case "cron.status":
      case "cron.add":
      case "cron.update":
      case "cron.remove":
      case "cron.run":
      case "cron.runs":
        return this.cron(method, params);
      case "node.list":
        return { ts: Date.now(), nodes: [] };
      case "exec.approval.list":
      case "plugin.approval.list":
      case "exec.approval.resolve":
      case "plugin.approval.resolve":
      case "approval.resolve":
        return this.approvalMethod(method, params, conn);
      default:
        throw invalid(`unknown method: ${method}`);
    }
  }

  private healthPayload() {
    return {
      ok: true,
      ts: Date.now(),
      durationMs: 1,
      defaultAgentId: this.agents[0]?.id,
      agents: this.agents.map((a, i) => ({
        agentId: a.id,
        name: a.name,
        isDefault: i === 0,
        sessions: { count: this.sessionRows().filter((s) => s.agentId === a.id).length },
      })),
    };
  }

  private sessionRows(): GatewaySessionRow[] {
    const configured = new Set(this.sessions.map((s) => s.key));
    return [...this.sessions, ...[...this.autoSessions.values()].filter((s) => !configured.has(s.key))];
  }

  private sessionsList(params: { limit?: number; offset?: number; agentId?: string }) {
    let rows = this.sessionRows();
    if (params.agentId) rows = rows.filter((r) => r.agentId === params.agentId);
    rows = [...rows].sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
    const offset = params.offset ?? 0;
    const limit = params.limit ?? 100;
    const page = rows.slice(offset, offset + limit);
    const hasMore = offset + limit < rows.length;
    return { ts: Date.now(), count: page.length, totalCount: rows.length, limitApplied: limit, hasMore, nextOffset: hasMore ? offset + limit : null, sessions: page };
  }

  /** `agents.create {name, workspace, emoji?, model?}`: the id is derived from `name`; an id that exists is refused. */
  private agentsCreate(params: any) {
    if (typeof params.name !== "string" || !params.name.trim()) throw invalid("invalid agents.create params: must have required property 'name'");
    if (typeof params.workspace !== "string" || !params.workspace) throw invalid("invalid agents.create params: must have required property 'workspace'");
    const agentId = params.name.trim().toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
    if (this.agents.some((a) => a.id === agentId)) throw invalid(`agent "${agentId}" already exists`);
    const agent: GatewayAgent = { id: agentId, name: params.name, workspace: params.workspace };
    if (typeof params.model === "string") agent.model = { primary: params.model };
    if (typeof params.emoji === "string") agent.identity = { emoji: params.emoji };
    this.agents = [...this.agents, agent];
    return { ok: true, agentId, name: params.name, workspace: params.workspace };
  }

  private knownAgent(agentId: unknown, sessionKey: unknown): string {
    const fromKey = typeof sessionKey === "string" ? /^agent:([^:]+):/.exec(sessionKey)?.[1] : undefined;
    const resolved = (typeof agentId === "string" ? agentId : undefined) ?? fromKey ?? (this.agents.length === 1 ? this.agents[0]!.id : undefined);
    if (!resolved) throw invalid("Multiple agents are configured, but no agent was selected. Pass agentId or use an agent-prefixed session key.");
    if (!this.agents.some((a) => a.id === resolved)) throw invalid(`Agent "${resolved}" no longer exists in configuration`);
    return resolved;
  }

  private chatSend(params: any) {
    if (typeof params.sessionKey !== "string" || params.sessionKey.length < 1 || params.sessionKey.length > 512) {
      throw invalid("invalid chat.send params: must have required property 'sessionKey'");
    }
    if (typeof params.message !== "string") throw invalid("invalid chat.send params: must have required property 'message'");
    if (typeof params.idempotencyKey !== "string" || !params.idempotencyKey) throw invalid("invalid chat.send params: must have required property 'idempotencyKey'");
    const agentId = this.knownAgent(params.agentId, params.sessionKey);
    const existing = this.runs.get(params.idempotencyKey);
    if (!existing) this.startRun(params.idempotencyKey, agentId, params.sessionKey, params.message);
    return { runId: params.idempotencyKey, status: "started" };
  }

  private chatAbort(params: any) {
    const aborted: string[] = [];
    for (const run of this.runs.values()) {
      if (run.sessionKey !== params.sessionKey || (params.runId && run.runId !== params.runId) || run.controller.signal.aborted) continue;
      run.controller.abort();
      aborted.push(run.runId);
    }
    return { ok: true, aborted: aborted.length > 0, runIds: aborted };
  }

  private agentMethod(conn: FakeConnection, id: string, params: any): void {
    const fail = (error: FakeGatewayError) => conn.send({ type: "res", id, ok: false, error: error.shape });
    if (typeof params.message !== "string") return fail(invalid("invalid agent params: must have required property 'message'"));
    if (typeof params.idempotencyKey !== "string" || !params.idempotencyKey) return fail(invalid("invalid agent params: must have required property 'idempotencyKey'"));
    let agentId: string;
    try {
      agentId = this.knownAgent(params.agentId, params.sessionKey);
    } catch (error) {
      return fail(error as FakeGatewayError);
    }
    const sessionKey = typeof params.sessionKey === "string" ? params.sessionKey : `agent:${agentId}:main`;
    const runId = params.idempotencyKey;
    const run = this.runs.get(runId) ?? this.startRun(runId, agentId, sessionKey, params.message);
    conn.send({ type: "res", id, ok: true, payload: { runId, sessionKey, agentId, status: "accepted", acceptedAt: Date.now() } });
    void run.done.then(({ status, text }) => {
      if (status === "error") {
        return conn.send({ type: "res", id, ok: false, error: { code: "UNAVAILABLE", message: `agent run failed: ${text}` } });
      }
      const usage = { input: 10, output: Math.max(1, Math.ceil(text.length / 4)), total: 10 + Math.max(1, Math.ceil(text.length / 4)) };
      conn.send({
        type: "res",
        id,
        ok: true,
        payload: {
          runId,
          status: status === "aborted" ? "aborted" : "ok",
          summary: status === "aborted" ? "aborted" : "completed",
          result: { payloads: [{ text, mediaUrl: null }], meta: { durationMs: 1, agentMeta: { sessionId: randomUUID(), provider: "fake", model: "fake-model", usage } } },
        },
      });
    });
  }

  private async agentWait(params: any) {
    const run = this.runs.get(params.runId);
    const timeoutMs = typeof params.timeoutMs === "number" ? params.timeoutMs : 30_000;
    if (!run) return { runId: params.runId, status: "timeout" };
    const outcome = await Promise.race([run.done, new Promise<null>((r) => setTimeout(() => r(null), timeoutMs).unref())]);
    if (!outcome) return { runId: params.runId, status: "timeout" };
    return { runId: run.runId, status: outcome.status === "done" ? "ok" : outcome.status, stopReason: "stop", terminalReply: { disposition: "visible", text: outcome.text } };
  }

  /** Runs one chat/agent turn: status, deltas, final (or aborted/error), with agent events alongside. */
  private startRun(runId: string, agentId: string, sessionKey: string, message: string): Run {
    const controller = new AbortController();
    const run: Run = { runId, sessionKey, agentId, controller, text: "", done: Promise.resolve({ status: "done", text: "" }) };
    this.runs.set(runId, run);
    const base = { runId, sessionKey, agentId };
    let chatSeq = 0;
    let agentSeq = 0;
    const chat = (payload: Record<string, unknown>) => this.broadcast("chat", { ...base, seq: ++chatSeq, ...payload });
    const agent = (stream: string, data: Record<string, unknown>) => this.broadcast("agent", { ...base, seq: ++agentSeq, stream, ts: Date.now(), data });
    const assistant = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], timestamp: Date.now() });
    const log = this.history.get(sessionKey) ?? this.history.set(sessionKey, []).get(sessionKey)!;
    log.push({ role: "user", content: message, timestamp: Date.now() });
    this.touchSession(sessionKey, agentId, true);

    run.done = (async () => {
      // Let the `res` of the request go out first, as on the real gateway.
      await new Promise((r) => setImmediate(r));
      agent("lifecycle", { phase: "start", startedAt: Date.now() });
      chat({ state: "status", phase: "preparing_context" });
      chat({ state: "status", phase: "starting_model" });
      const finishAborted = () => {
        chat({ state: "aborted", stopReason: "rpc", message: assistant(run.text) });
        agent("lifecycle", { phase: "end", status: "cancelled", aborted: true, stopReason: "rpc" });
        return { status: "aborted", text: run.text };
      };
      try {
        const reply = await this.replyHook(agentId, message, sessionKey, { runId, signal: controller.signal });
        const spec = typeof reply === "string" ? { deltas: [reply] } : reply;
        const deltas = spec.deltas ?? (spec.text !== undefined ? [spec.text] : []);
        for (const delta of deltas) {
          if (spec.delayMs) await abortableSleep(spec.delayMs, controller.signal);
          if (controller.signal.aborted) return finishAborted();
          run.text += delta;
          agent("assistant", { text: run.text, delta });
          chat({ state: "delta", deltaText: delta, message: assistant(run.text) });
        }
        if (controller.signal.aborted) return finishAborted();
        if (spec.error) throw new Error(spec.error);
        const usage = spec.usage ?? { input: 10, output: Math.max(1, Math.ceil(run.text.length / 4)) };
        agent("lifecycle", { phase: "end", stopReason: "stop", terminalReply: { disposition: "visible", text: run.text } });
        chat({ state: "final", stopReason: "stop", message: assistant(run.text), usage });
        log.push({ ...assistant(run.text), provider: "fake", model: "fake-model", usage, stopReason: "stop" });
        return { status: "done", text: run.text };
      } catch (error) {
        if (controller.signal.aborted) return finishAborted();
        const errorMessage = error instanceof Error ? error.message : String(error);
        agent("lifecycle", { phase: "error", error: errorMessage });
        chat({ state: "error", errorMessage, errorDetail: { provider: "fake", model: "fake-model" } });
        return { status: "error", text: errorMessage };
      } finally {
        this.touchSession(sessionKey, agentId, false);
      }
    })();
    return run;
  }

  private touchSession(key: string, agentId: string, active: boolean): void {
    const row: GatewaySessionRow = { key, agentId, sessionId: this.autoSessions.get(key)?.sessionId ?? randomUUID(), model: "fake-model", modelProvider: "fake", updatedAt: Date.now(), status: active ? "running" : "done", hasActiveRun: active };
    this.autoSessions.set(key, row);
    this.broadcast("sessions.changed", { sessionKey: key, agentId, reason: active ? "send" : "agent.input.settled", ts: Date.now(), session: row }, (c) => c.subscribedSessions);
  }

  private cron(method: string, params: any): unknown {
    const find = () => {
      const id = params.id ?? params.jobId;
      const job = typeof id === "string" ? this.cronJobs.get(id) : undefined;
      if (!job) throw invalid(`Automation not found: ${id}.`, { code: "CRON_JOB_NOT_FOUND", jobId: id });
      return job;
    };
    const event = (payload: Record<string, unknown>) => this.broadcast("cron", payload);
    switch (method) {
      case "cron.status":
        return { enabled: true, triggersEnabled: true, storage: "memory", jobs: this.cronJobs.size };
      case "cron.list": {
        let jobs = [...this.cronJobs.values()];
        if (!params.includeDisabled) jobs = jobs.filter((j) => j.enabled !== false);
        if (params.agentId) jobs = jobs.filter((j) => j.agentId === params.agentId);
        const offset = params.offset ?? 0;
        const limit = Math.min(params.limit ?? 50, 200);
        const page = jobs.slice(offset, offset + limit).map((j) => ({ ...j, effectiveAgentId: j.agentId ?? this.agents[0]?.id }));
        const hasMore = offset + limit < jobs.length;
        return { jobs: page, total: jobs.length, offset, limit, hasMore, nextOffset: hasMore ? offset + limit : null };
      }
      case "cron.add": {
        for (const field of ["name", "schedule", "sessionTarget", "wakeMode", "payload"]) {
          if (params[field] === undefined) throw invalid(`invalid cron.add params: must have required property '${field}'`);
        }
        if (params.schedule?.kind === "cron" && String(params.schedule.expr ?? "").trim().split(/\s+/).length < 5) {
          throw new FakeGatewayError({ code: "INVALID_REQUEST", message: `CronPattern: invalid configuration format ('${params.schedule.expr}'), exactly five, six, or seven space separated parts are required.` });
        }
        if (this.agents.length > 1 && !params.agentId) throw new FakeGatewayError({ code: "UNAVAILABLE", message: "Error: Agent-less cron job has no resolvable owner. Pass --agent <id>" });
        const now = Date.now();
        const job = { enabled: true, ...params, id: randomUUID(), createdAtMs: now, updatedAtMs: now, state: { nextRunAtMs: now + 60_000 }, nextRunAtMs: now + 60_000 };
        this.cronJobs.set(job.id, job);
        event({ jobId: job.id, action: "added", job, nextRunAtMs: job.nextRunAtMs });
        return job;
      }
      case "cron.update": {
        const job = find();
        if (typeof params.patch !== "object" || params.patch === null) throw invalid("invalid cron.update params: must have required property 'patch'");
        Object.assign(job, params.patch, { updatedAtMs: Date.now() });
        event({ jobId: job.id, action: "updated", job });
        return job;
      }
      case "cron.remove": {
        const job = find();
        this.cronJobs.delete(job.id);
        event({ jobId: job.id, action: "removed", job });
        return { ok: true, removed: true };
      }
      case "cron.run": {
        const job = find();
        const runId = `manual:${job.id}:${Date.now()}:${++this.cronRunCount}`;
        // `cron.run` only enqueues: the res first, then started/finished (as observed).
        setImmediate(() => {
          const runAtMs = Date.now();
          event({ jobId: job.id, action: "started", job, runAtMs, runId });
          const entry = { ts: Date.now(), jobId: job.id, action: "finished", status: "ok", summary: "done", runId, runAtMs, durationMs: 1, model: "fake-model", provider: "fake", usage: { input: 10, output: 5 }, jobName: job.name };
          this.cronRuns.unshift(entry);
          job.lastRunAtMs = runAtMs;
          job.lastRunStatus = "ok";
          event({ jobId: job.id, action: "finished", status: "ok", runId, runAtMs, durationMs: 1, usage: entry.usage });
        });
        return { ok: true, enqueued: true, runId };
      }
      case "cron.runs": {
        let entries = this.cronRuns;
        const id = params.id ?? params.jobId;
        if (id) entries = entries.filter((e) => e.jobId === id);
        if (params.runId) entries = entries.filter((e) => e.runId === params.runId);
        return { entries: entries.slice(0, params.limit ?? 50), total: entries.length };
      }
    }
    throw invalid(`unknown method: ${method}`);
  }
}

/** Returned by a handler that answers by itself (the `agent` method's two frames). */
const NO_RESPONSE = Symbol("no response");

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Checks a `device` block as the gateway does (reference §2.2, v3 or v2 payload); returns the problem or null. */
function verifyDevice(device: any, params: any, challenge: { nonce: string; ts: number }): string | null {
  if (typeof device !== "object" || device === null) return "device must be an object";
  const { id, publicKey, signature, signedAt, nonce } = device;
  if (nonce !== challenge.nonce) return "nonce does not match the challenge";
  if (signedAt !== challenge.ts) return "signedAt does not match the challenge";
  let raw: Buffer;
  try {
    raw = Buffer.from(publicKey, "base64url");
  } catch {
    return "publicKey is not base64url";
  }
  if (raw.length !== 32) return "publicKey is not a raw 32-byte Ed25519 key";
  if (createHash("sha256").update(raw).digest("hex") !== id) return "id is not the SHA-256 of the public key";
  const key = createPublicKey({ key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw]), format: "der", type: "spki" });
  const token = params.auth?.token ?? params.auth?.deviceToken ?? params.auth?.bootstrapToken ?? "";
  const client = params.client ?? {};
  const v2 = ["v2", id, client.id, client.mode, params.role, params.scopes.join(","), signedAt, token, nonce].join("|");
  const v3 = ["v3", id, client.id, client.mode, params.role, params.scopes.join(","), signedAt, token, nonce, String(client.platform ?? "").toLowerCase(), String(client.deviceFamily ?? "").toLowerCase()].join("|");
  const sig = Buffer.from(String(signature), "base64url");
  if (verify(null, Buffer.from(v3), key, sig) || verify(null, Buffer.from(v2), key, sig)) return null;
  return "signature does not verify";
}
