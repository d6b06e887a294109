/**
 * The OpenClaw gateway client (DESIGN §9), as plugins see it: `hostTokens.gateway` in a
 * declaration's deps, or `ctx.gateway`. One long-lived WebSocket in the host speaking protocol v4
 * (`shared/reference/openclaw-gateway.md`); this file is the contract, the host implements it.
 *
 * Payload shapes are typed loosely on purpose: the gateway sends more fields than its closed
 * schema lists, so only the fields Muster reads are named and the rest pass through.
 */

/** `connecting | connected | down | unauthorized | disabled` (DESIGN §14.1). */
export type GatewayState = "connecting" | "connected" | "down" | "unauthorized" | "disabled";

/** The client's state, as `/api/health` shows it under `gateway`. */
export interface GatewayStatus {
  state: GatewayState;
  /** The WebSocket URL, or null when the gateway is disabled (`GATEWAY_URL=off`). */
  url: string | null;
  /** ISO 8601 time of the last state change. */
  since: string;
  /** Why the last attempt failed (never the token). */
  lastError?: string;
}

/** One gateway link's status (several gateways, DESIGN §16): the link's name beside its state. */
export interface GatewayLinkStatus extends GatewayStatus {
  name: string;
}

/** The `error` of a `res` frame with `ok: false` (reference §2.3). */
export interface GatewayErrorShape {
  code: string;
  message: string;
  details?: Record<string, unknown> & { code?: string };
  retryable?: boolean;
  retryAfterMs?: number;
}

export interface GatewayCallOptions {
  /** Per-call timeout; the host's default (`gateway.requestTimeoutMs`) otherwise. */
  timeoutMs?: number;
  /** Aborting rejects the call at once (the gateway is not told; use `chat.abort` for runs). */
  signal?: AbortSignal;
}

/** One row of `sessions.list` (reference §2.7): the fields Muster reads. */
export interface GatewaySessionRow {
  key: string;
  agentId?: string;
  sessionId?: string;
  model?: string;
  modelProvider?: string;
  updatedAt?: number;
  lastActivityAt?: number;
  lastInteractionAt?: number;
  status?: string;
  hasActiveRun?: boolean;
  inputTokens?: number;
  outputTokens?: number;
  [field: string]: unknown;
}

/** One agent of `agents.list` (reference §2.6). */
export interface GatewayAgent {
  id: string;
  name?: string;
  workspace?: string;
  model?: { primary?: string; fallbacks?: string[] };
  [field: string]: unknown;
}

/** Token counts as the gateway reports them (names vary by path; read both spellings). */
export interface GatewayUsage {
  input?: number;
  output?: number;
  inputTokens?: number;
  outputTokens?: number;
  [field: string]: unknown;
}

/** The methods Muster calls, with the params it sends and the result fields it reads. */
export interface GatewayMethods {
  health: { params: Record<string, never>; result: { ok: boolean; agents?: Array<{ agentId: string; sessions?: { count?: number } }>; [field: string]: unknown } };
  status: { params: Record<string, never>; result: Record<string, unknown> };
  "agents.list": { params: Record<string, never>; result: { defaultId?: string; agents: GatewayAgent[]; [field: string]: unknown } };
  "sessions.list": {
    params: { limit?: number; offset?: number; agentId?: string; activeMinutes?: number; includeLastMessage?: boolean };
    result: { sessions: GatewaySessionRow[]; count?: number; totalCount?: number; hasMore?: boolean; nextOffset?: number | null; [field: string]: unknown };
  };
  "sessions.subscribe": { params: Record<string, unknown>; result: { subscribed: boolean } };
  "cron.list": {
    params: { includeDisabled?: boolean; limit?: number; offset?: number; agentId?: string };
    result: { jobs: Array<Record<string, unknown> & { id: string }>; total?: number; hasMore?: boolean; nextOffset?: number | null };
  };
  "cron.add": { params: Record<string, unknown>; result: Record<string, unknown> & { id?: string } };
  "cron.update": { params: { id: string; patch: Record<string, unknown> }; result: Record<string, unknown> };
  "cron.remove": { params: { id: string }; result: { ok: boolean; removed: boolean } };
  "cron.run": { params: { id: string; mode?: "due" | "force" | "if-enabled" }; result: { ok: boolean; enqueued: boolean; runId: string } };
  "cron.runs": { params: { id?: string; runId?: string; limit?: number }; result: { entries: Array<Record<string, unknown>> } };
  "chat.send": {
    params: { sessionKey: string; message: string; idempotencyKey: string; agentId?: string; timeoutMs?: number };
    result: { runId: string; status: string };
  };
  "chat.abort": { params: { sessionKey: string; agentId?: string; runId?: string }; result: { ok: boolean; aborted: boolean; runIds?: string[] } };
  "chat.history": { params: { sessionKey: string; agentId?: string; limit?: number }; result: { messages: Array<Record<string, unknown>>; [field: string]: unknown } };
  /** Answers twice on one id; call it through {@link GatewayClient.agent}, never `call`. */
  agent: { params: GatewayAgentParams; result: GatewayAgentFinal };
  "agent.wait": { params: { runId: string; timeoutMs?: number }; result: { runId: string; status: string; [field: string]: unknown } };
}

export interface GatewayAgentParams {
  message: string;
  idempotencyKey: string;
  agentId?: string;
  sessionKey?: string;
  model?: string;
  timeout?: number;
  extraSystemPrompt?: string;
}

/** The first `res` of the `agent` method. */
export interface GatewayAgentAccepted {
  runId: string;
  sessionKey?: string;
  agentId?: string;
  status: "accepted";
  acceptedAt?: number;
}

/** The second (final) `res` of the `agent` method (reference §2.10). */
export interface GatewayAgentFinal {
  runId: string;
  status: string;
  summary?: string;
  result?: {
    payloads?: Array<{ text?: string; mediaUrl?: string | null }>;
    meta?: { durationMs?: number; agentMeta?: { sessionId?: string; provider?: string; model?: string; usage?: GatewayUsage } };
  };
  [field: string]: unknown;
}

/** A `chat` event payload (reference §2.9); `deltaText` is the increment, `message` cumulative. */
export interface GatewayChatEvent {
  runId: string;
  sessionKey: string;
  agentId?: string;
  seq?: number;
  state: "status" | "delta" | "final" | "aborted" | "error";
  phase?: string;
  deltaText?: string;
  replace?: boolean;
  message?: { role: string; content: Array<{ type: string; text?: string }> | string; [field: string]: unknown };
  stopReason?: string;
  usage?: GatewayUsage;
  errorMessage?: string;
  errorKind?: string;
  errorDetail?: Record<string, unknown>;
}

/** An `agent` event payload (reference §2.10). */
export interface GatewayAgentEvent {
  runId: string;
  seq?: number;
  stream: string;
  ts?: number;
  data: Record<string, unknown>;
  sessionKey?: string;
  agentId?: string;
}

/** A `cron` event payload (reference §2.8). */
export interface GatewayCronEvent {
  jobId: string;
  action: "added" | "updated" | "started" | "finished" | "removed";
  status?: string;
  error?: string;
  runId?: string;
  usage?: GatewayUsage;
  [field: string]: unknown;
}

/** The events Muster listens to. Any other event name arrives as `unknown`. */
export interface GatewayEvents {
  chat: GatewayChatEvent;
  agent: GatewayAgentEvent;
  cron: GatewayCronEvent;
  tick: { ts: number };
  shutdown: { reason?: string; restartExpectedMs?: number };
  health: Record<string, unknown>;
  presence: { presence: Array<Record<string, unknown>> };
  "sessions.changed": { sessionKey: string; agentId?: string; reason?: string; ts?: number; session?: GatewaySessionRow; [field: string]: unknown };
}

export type GatewayEventName = keyof GatewayEvents | (string & {});
export type GatewayEventPayload<E extends string> = E extends keyof GatewayEvents ? GatewayEvents[E] : unknown;

/** What `hello-ok` told us about the gateway (features are for discovery only). */
export interface GatewayHello {
  protocol: number;
  serverVersion?: string;
  scopes: string[];
  methods: string[];
  events: string[];
  tickIntervalMs: number;
  maxPayload: number;
  defaultAgentId?: string;
}

export interface GatewayClient {
  /** The current state (cheap; no I/O). */
  status(): GatewayStatus;
  /** `hello-ok` facts of the current connection, or null when not connected. */
  hello(): GatewayHello | null;
  /**
   * Resolves when connected; rejects with the coded Muster error (`GATEWAY_UNAVAILABLE`,
   * `GATEWAY_UNAUTHORIZED`) when not connected within `timeoutMs` (default 0: now or never).
   */
  ready(timeoutMs?: number): Promise<void>;
  /**
   * Sends one request and resolves with its payload. Rejects with Muster errors: not
   * connected → `GATEWAY_UNAVAILABLE`/`GATEWAY_UNAUTHORIZED` (503), `ok:false` →
   * `GATEWAY_ERROR` (502, gateway code and message in `details`), no answer in time →
   * `GATEWAY_TIMEOUT` (504), connection lost while waiting → `GATEWAY_UNAVAILABLE`.
   */
  call<M extends keyof GatewayMethods>(method: M, params: GatewayMethods[M]["params"], options?: GatewayCallOptions): Promise<GatewayMethods[M]["result"]>;
  /** Any other method (for example `exec.approvals.*`), untyped. */
  request(method: string, params: unknown, options?: GatewayCallOptions): Promise<unknown>;
  /**
   * The two-stage `agent` method: `onAccepted` gets the first `res`, the promise the final
   * one. The timeout covers the whole run.
   */
  agent(params: GatewayAgentParams, options?: GatewayCallOptions & { onAccepted?: (accepted: GatewayAgentAccepted) => void }): Promise<GatewayAgentFinal>;
  /** Subscribes to an event; returns the unsubscribe function. Listeners never throw into the client. */
  on<E extends GatewayEventName>(event: E, listener: (payload: GatewayEventPayload<E>) => void): () => void;
  /**
   * The same as an async stream, ending when `signal` aborts. Events arriving faster than
   * the consumer reads are buffered up to `bufferLimit` (default 10,000), then the oldest dropped.
   */
  events<E extends GatewayEventName>(event: E, options?: { signal?: AbortSignal; bufferLimit?: number }): AsyncIterable<GatewayEventPayload<E>>;
  /**
   * Called on every state change, and once at once with the current state. Returns the
   * unsubscribe function. With several gateways: called on every link's change, with the
   * aggregate status (connected while any link is), so a listener re-reads on each reconnect.
   */
  onState(listener: (status: GatewayStatus) => void): () => void;
  /** Each gateway link's status, in configured order (several gateways, DESIGN §16; one entry for one gateway). */
  links?(): GatewayLinkStatus[];
  /**
   * The name of the gateway link an agent's calls go to, learnt from each link's
   * `agents.list` (the first link wins an id two gateways share), or null when no link names it.
   * Only a client of several gateways has it.
   */
  gatewayOf?(agentId: string): string | null;
}
