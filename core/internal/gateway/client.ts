// The host's one long-lived connection to the OpenClaw gateway (DESIGN §9, reference §2):
// waits for the challenge, connects with explicit scopes, then correlates requests, fans
// out events and watches the connection. It reconnects by itself (capped backoff with
// jitter; the gateway's own retryAfterMs while it starts; slowly after a refused token or
// protocol) and never blocks the host: calls made while it is not connected fail at once.
import WebSocket from "ws";
import type { Logger } from "pino";
import type {
  GatewayAgentAccepted,
  GatewayAgentFinal,
  GatewayClient,
  GatewayHello,
  GatewayLinkStatus,
  GatewayMethods,
  GatewayState,
  GatewayStatus,
} from "../../plugin-api/gateway.ts";
import { hostErrors } from "../../plugin-api/errors.ts";
import { createBackoff } from "./backoff.ts";
import { watchReadiness, type ReadinessWatch } from "./readiness-watch.ts";
import { loadDeviceIdentity, type DeviceIdentity } from "./device-identity.ts";
import { LinkListeners } from "./link-listeners.ts";
import { HARD_FRAME_CAP_BYTES, parseFrame } from "./frames.ts";
import { classifyRefusal, connectParams, missingScopes, readHello, wantsDevice } from "./handshake.ts";
import { PendingCalls } from "./pending-calls.ts";
import { notConnectedError } from "./not-connected.ts";
import { failureForRefusal, failureFromClose, type Failure } from "./outcomes.ts";
import { Keepalive } from "./keepalive.ts";
import { GATEWAY_PROTOCOL, type GatewayTimings } from "./timings.ts";

export interface GatewayClientOptions {
  /** The link's name (several gateways, DESIGN §16): its device identity file and its log lines. */
  name?: string;
  /** The WebSocket URL, or `off`. */
  url: string;
  token: string | null;
  scopes: string[];
  requestTimeoutMs: number;
  deviceIdentity: "auto" | "on" | "off";
  /** MUSTER_HOME, where a device identity is kept. */
  home: string;
  version: string;
  timings: GatewayTimings;
  logger: Logger;
}

/** The client plus the lifecycle only the host drives. */
export interface HostGatewayClient extends GatewayClient {
  /** Starts connecting in the background (never waits for the gateway). */
  start(): void;
  /** Closes the connection and stops reconnecting; waiting calls fail with GATEWAY_UNAVAILABLE. */
  stop(): Promise<void>;
  /** Every gateway event, whatever its name (what the leased link relays to other instances). */
  onAny(listener: (event: string, payload: unknown) => void): () => void;
}

/** ws refuses (close 1009) anything above this before our own, smaller cap applies. */
const SOCKET_MAX_PAYLOAD = HARD_FRAME_CAP_BYTES + 1024 * 1024;
/** Invalid frames logged per connection at warn level; later ones at debug (a flood must not flood the log). */
const INVALID_FRAME_WARNINGS = 20;

/** One socket and where its handshake stands. */
interface Attempt {
  ws: WebSocket;
  phase: "opening" | "challenge" | "connect" | "open";
  connectId: string;
  timer?: NodeJS.Timeout;
  failure?: Failure;
  socketError?: string;
  lastSeq?: number;
  invalidFrames: number;
  hello?: GatewayHello;
  keepalive?: Keepalive;
}

export function createGatewayClient(options: GatewayClientOptions): HostGatewayClient {
  return new GatewayConnection(options);
}

/** Strips credentials from a URL before it is shown or logged. */
function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString().replace(/\/$/, "");
  } catch {
    return url;
  }
}

class GatewayConnection extends LinkListeners implements HostGatewayClient {
  private readonly options: GatewayClientOptions;
  private readonly logger: Logger;
  private readonly pending: PendingCalls;
  private readonly backoff;
  private readonly disabled: boolean;
  private current: GatewayStatus;
  private attempt: Attempt | undefined;
  private device: DeviceIdentity | null = null;
  private started = false;
  private stopped = false;
  private nextId = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private stableTimer: NodeJS.Timeout | undefined;
  /** While the gateway is unreachable: connects as soon as it is ready, not when the backoff ends. */
  private readiness: ReadinessWatch | undefined;
  /** Until when reconnects stay fast because the gateway announced a restart. */
  private restartUntil = 0;

  constructor(options: GatewayClientOptions) {
    super(options.logger);
    this.options = options;
    this.logger = options.logger;
    this.pending = new PendingCalls(options.logger);
    this.backoff = createBackoff(options.timings.backoffInitialMs, options.timings.backoffMaxMs);
    this.disabled = options.url === "off";
    this.current = { state: this.disabled ? "disabled" : "connecting", url: this.disabled ? null : displayUrl(options.url), since: new Date().toISOString() };
  }

  // ---- lifecycle -------------------------------------------------------------------------

  start(): void {
    if (this.disabled || this.started) return;
    this.started = true;
    if (wantsDevice(this.options.deviceIdentity, this.options.url)) {
      try {
        this.device = loadDeviceIdentity(this.options.home, this.options.name);
        this.logger.info({ deviceId: this.device.id }, "gateway device identity loaded (pair it once on the gateway: openclaw devices approve <id>)");
      } catch (error) {
        this.logger.error({ err: error }, "gateway device identity could not be loaded; connecting without one");
      }
    }
    this.open();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.readiness?.stop();
    this.clearConnectionTimers();
    const attempt = this.attempt;
    this.attempt = undefined;
    attempt?.keepalive?.stop();
    this.pending.rejectAll(() => hostErrors.GATEWAY_UNAVAILABLE({ reason: "Muster is stopping" }));
    if (attempt && attempt.ws.readyState !== WebSocket.CLOSED) {
      const closed = new Promise<void>((r) => attempt.ws.once("close", () => r()));
      if (attempt.ws.readyState === WebSocket.CONNECTING) attempt.ws.terminate();
      else attempt.ws.close(1000, "muster stopping");
      const force = setTimeout(() => attempt.ws.terminate(), 1_000);
      await closed;
      clearTimeout(force);
    }
    this.stateListeners.clear();
  }

  // ---- state -----------------------------------------------------------------------------

  status(): GatewayStatus {
    return { ...this.current };
  }

  links(): GatewayLinkStatus[] {
    return [{ name: this.options.name ?? "default", ...this.current }];
  }

  hello(): GatewayHello | null {
    return this.current.state === "connected" && this.attempt?.hello ? { ...this.attempt.hello } : null;
  }

  protected mayConnect(): boolean {
    return !this.disabled && !this.stopped;
  }

  private setState(state: GatewayState, lastError?: string): void {
    const changed = state !== this.current.state;
    this.current = {
      state,
      url: this.current.url,
      since: changed ? new Date().toISOString() : this.current.since,
      ...(lastError ? { lastError } : {}),
    };
    if (!changed) return;
    const log = { state, url: this.current.url, ...(lastError ? { lastError } : {}) };
    if (state === "connected") this.logger.info(log, "gateway connected");
    else if (state === "connecting") this.logger.info(log, "gateway connecting");
    else this.logger.warn(log, `gateway ${state}`);
    this.notifyAll();
  }

  private notConnectedError() {
    return notConnectedError(this.current);
  }

  // ---- calls -----------------------------------------------------------------------------

  call<M extends keyof GatewayMethods>(method: M, params: GatewayMethods[M]["params"], options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<GatewayMethods[M]["result"]> {
    return this.send(method, params, options ?? {}, false) as Promise<GatewayMethods[M]["result"]>;
  }

  request(method: string, params: unknown, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<unknown> {
    return this.send(method, params, options, false);
  }

  agent(params: GatewayMethods["agent"]["params"], options: Parameters<GatewayClient["agent"]>[1] = {}): Promise<GatewayAgentFinal> {
    return this.send("agent", params, options, true, options.onAccepted) as Promise<GatewayAgentFinal>;
  }

  private send(
    method: string,
    params: unknown,
    options: { timeoutMs?: number; signal?: AbortSignal },
    twoStage: boolean,
    onAccepted?: (accepted: GatewayAgentAccepted) => void,
  ): Promise<unknown> {
    const attempt = this.attempt;
    if (this.current.state !== "connected" || !attempt?.hello || attempt.ws.readyState !== WebSocket.OPEN) return Promise.reject(this.notConnectedError());
    if (typeof method !== "string" || method.length === 0) return Promise.reject(new TypeError("gateway method must be a non-empty string"));
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const id = String(++this.nextId);
    const frame = JSON.stringify({ type: "req", id, method, params: params ?? {} });
    const limit = Math.min(attempt.hello.maxPayload, HARD_FRAME_CAP_BYTES);
    if (Buffer.byteLength(frame) > limit) return Promise.reject(hostErrors.PAYLOAD_TOO_LARGE({ limit: `the gateway's ${limit} bytes` }));
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs;
    const result = this.pending.add(id, { method, timeoutMs, ...(options.signal ? { signal: options.signal } : {}), twoStage, ...(onAccepted ? { onAccepted } : {}) });
    // A failed send means the socket is going away; its close rejects the call.
    attempt.ws.send(frame, (error) => error && this.logger.debug({ err: error, method }, "gateway send failed"));
    return result;
  }

  // ---- connection ------------------------------------------------------------------------

  private open(): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.readiness?.stop();
    this.readiness = undefined;
    const ws = new WebSocket(this.options.url, {
      maxPayload: SOCKET_MAX_PAYLOAD,
      handshakeTimeout: this.options.timings.connectTimeoutMs,
      perMessageDeflate: false,
    });
    const attempt: Attempt = { ws, phase: "opening", connectId: `connect-${++this.nextId}`, invalidFrames: 0 };
    this.attempt = attempt;
    ws.on("open", () => {
      attempt.phase = "challenge";
      attempt.timer = setTimeout(
        () => this.fail(attempt, { state: "down", lastError: `no connect.challenge within ${this.options.timings.challengeTimeoutMs} ms (is ${this.current.url} an OpenClaw gateway?)`, retry: "backoff" }),
        this.options.timings.challengeTimeoutMs,
      );
    });
    ws.on("message", (data: Buffer, isBinary: boolean) => this.onMessage(attempt, data, isBinary));
    ws.on("error", (error: NodeJS.ErrnoException) => {
      attempt.socketError = error.code === "ECONNREFUSED" ? `connection refused at ${this.current.url} (is the gateway running?)` : error.message;
    });
    ws.on("close", (code: number, reason: Buffer) => this.onClose(attempt, code, reason.toString()));
    ws.on("pong", () => attempt.keepalive?.pong());
  }

  private onMessage(attempt: Attempt, data: Buffer, isBinary: boolean): void {
    if (attempt !== this.attempt) return;
    attempt.keepalive?.frame();
    const frame = parseFrame(data, attempt.hello?.maxPayload ?? HARD_FRAME_CAP_BYTES);
    if (frame.type === "invalid") {
      attempt.invalidFrames += 1;
      const level = attempt.invalidFrames <= INVALID_FRAME_WARNINGS ? "warn" : "debug";
      this.logger[level]({ reason: frame.reason, sample: frame.sample, binary: isBinary }, "gateway frame dropped");
      return;
    }
    if (attempt.phase === "challenge") {
      if (frame.type === "event" && frame.event === "connect.challenge") return this.sendConnect(attempt, frame.payload);
      return;
    }
    if (attempt.phase === "connect") {
      if (frame.type !== "res" || frame.id !== attempt.connectId) return;
      clearTimeout(attempt.timer);
      if (frame.ok) return this.onHello(attempt, frame.payload);
      return this.fail(attempt, failureForRefusal(classifyRefusal(frame.error), this.device?.id ?? null, this.options.timings.backoffMaxMs));
    }
    if (attempt.phase !== "open") return;
    if (frame.type === "res") return this.pending.settle(frame);
    if (frame.seq !== undefined) {
      if (attempt.lastSeq !== undefined && frame.seq !== attempt.lastSeq + 1) {
        this.logger.debug({ event: frame.event, seq: frame.seq, expected: attempt.lastSeq + 1 }, "gateway event sequence gap or reorder");
      }
      attempt.lastSeq = Math.max(attempt.lastSeq ?? 0, frame.seq);
    }
    if (frame.event === "shutdown") {
      this.logger.info({ payload: frame.payload }, "gateway is shutting down");
      this.restartUntil = Date.now() + this.options.timings.restartWindowMs;
    }
    this.streams.emit(frame.event, frame.payload);
  }

  private sendConnect(attempt: Attempt, payload: unknown): void {
    clearTimeout(attempt.timer);
    const p = payload as { nonce?: unknown; ts?: unknown } | undefined;
    const challenge = typeof p?.nonce === "string" && typeof p.ts === "number" ? { nonce: p.nonce, ts: p.ts } : null;
    if (this.device && !challenge) return this.fail(attempt, { state: "down", lastError: "connect.challenge without nonce/ts; cannot sign the device identity", retry: "backoff" });
    const params = connectParams({ version: this.options.version, scopes: this.options.scopes, token: this.options.token, challenge, device: this.device });
    attempt.phase = "connect";
    // The connect frame carries the token: it is sent, never logged.
    attempt.ws.send(JSON.stringify({ type: "req", id: attempt.connectId, method: "connect", params }));
    attempt.timer = setTimeout(
      () => this.fail(attempt, { state: "down", lastError: `no answer to connect within ${this.options.timings.connectTimeoutMs} ms`, retry: "backoff" }),
      this.options.timings.connectTimeoutMs,
    );
  }

  private onHello(attempt: Attempt, payload: unknown): void {
    const hello = readHello(payload);
    if (!hello) return this.fail(attempt, { state: "down", lastError: "the gateway answered connect without a hello-ok", retry: "backoff" });
    if (hello.protocol !== GATEWAY_PROTOCOL) {
      return this.fail(attempt, { state: "down", lastError: `protocol mismatch: the gateway speaks protocol ${hello.protocol}, Muster speaks ${GATEWAY_PROTOCOL}`, retry: "slow" });
    }
    const deviceToken = (payload as { auth?: { deviceToken?: unknown } }).auth?.deviceToken;
    if (this.device && typeof deviceToken === "string") this.device.rememberDeviceToken(deviceToken);
    attempt.hello = hello;
    attempt.phase = "open";
    attempt.keepalive = new Keepalive(attempt.ws, {
      tickIntervalMs: hello.tickIntervalMs,
      pingIntervalMs: this.options.timings.pingIntervalMs,
      pongTimeoutMs: this.options.timings.pongTimeoutMs,
      onDead: (lastError, reason) => this.fail(attempt, { state: "down", lastError, retry: "backoff" }, 4000, reason),
    });
    attempt.keepalive.start();
    this.stableTimer = setTimeout(() => this.backoff.reset(), this.options.timings.stableAfterMs);
    const missing = missingScopes(this.options.scopes, hello.scopes);
    const warning = missing.length
      ? `the gateway granted scopes [${hello.scopes.join(", ")}], not ${missing.join(", ")}${this.device ? "" : "; a gateway on another host needs a paired device identity (GATEWAY_DEVICE_IDENTITY=on)"}`
      : undefined;
    if (warning) this.logger.warn({ granted: hello.scopes, missing }, "gateway granted fewer scopes than requested");
    this.logger.debug({ serverVersion: hello.serverVersion, protocol: hello.protocol, scopes: hello.scopes, tickIntervalMs: hello.tickIntervalMs }, "gateway hello");
    this.restartUntil = 0;
    this.setState("connected", warning);
    // Events are not replayed across connections: subscribe again; consumers re-read on the state change.
    this.request("sessions.subscribe", {}).catch((error) => this.logger.warn({ err: error }, "gateway sessions.subscribe failed"));
  }

  /** Ends an attempt with a known outcome; the close handler applies it. */
  private fail(attempt: Attempt, failure: Failure, code = 1000, reason = "muster closing"): void {
    if (attempt !== this.attempt || attempt.failure) return;
    attempt.failure = failure;
    clearTimeout(attempt.timer);
    if (attempt.ws.readyState === WebSocket.OPEN) {
      attempt.ws.close(code, reason);
      // A half-open peer never answers the close frame.
      setTimeout(() => attempt.ws.terminate(), 1_000).unref();
    } else attempt.ws.terminate();
  }

  private onClose(attempt: Attempt, code: number, reason: string): void {
    clearTimeout(attempt.timer);
    if (attempt !== this.attempt) return;
    this.attempt = undefined;
    attempt.keepalive?.stop();
    this.clearConnectionTimers();
    const wasOpen = attempt.phase === "open";
    this.pending.rejectAll(() => hostErrors.GATEWAY_UNAVAILABLE({ reason: "the connection to the gateway closed while the call was waiting" }));
    if (this.stopped) return;
    const failure = attempt.failure ?? failureFromClose(code, reason, attempt.socketError, attempt.phase === "opening");
    this.logger.debug({ code, reason, phase: attempt.phase, wasOpen }, "gateway connection closed");
    this.setState(failure.state, failure.lastError);
    if (code === 1012 && wasOpen) this.restartUntil = Date.now() + this.options.timings.restartWindowMs;
    const delay = failure.retry === "slow" ? this.options.timings.unauthorizedRetryMs : failure.retry === "backoff" ? this.backoffDelay() : failure.retry;
    this.retryTimer = setTimeout(() => this.open(), delay);
    // Nothing answered (refused, unreachable), or an open connection dropped: watch for the
    // gateway to be back. A gateway that answered and refused is left to the backoff, never polled.
    const unreachable = attempt.phase === "opening" && attempt.socketError !== undefined && attempt.failure === undefined;
    if ((unreachable || wasOpen) && delay > this.options.timings.readinessProbeMs) {
      this.readiness = watchReadiness(this.options.url, this.options.timings.readinessProbeMs, () => this.open(), wasOpen);
    }
  }

  private backoffDelay(): number {
    const delay = this.backoff.next();
    return Date.now() < this.restartUntil ? Math.min(delay, this.options.timings.restartRetryMs) : delay;
  }

  private clearConnectionTimers(): void {
    clearTimeout(this.stableTimer);
    this.stableTimer = undefined;
  }
}
