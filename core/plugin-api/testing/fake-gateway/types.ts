// The fake gateway's vocabulary: options, reply hooks, connections, approvals and the error a
// method handler throws to answer `ok:false`.
import type { WebSocket } from "ws";
import type { GatewayAgent, GatewayErrorShape, GatewaySessionRow } from "../../gateway.ts";

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

/** An `INVALID_REQUEST` answer, as the gateway's schema checks give. */
export const invalid = (message: string, details?: GatewayErrorShape["details"]): FakeGatewayError =>
  new FakeGatewayError({ code: "INVALID_REQUEST", message, ...(details ? { details } : {}) });

/** Returned by a handler that answers by itself (the `agent` method's two frames). */
export const NO_RESPONSE = Symbol("no response");

/** Sends an event to the authenticated connections `filter` accepts, with each one's `seq`. */
export type Broadcast = (event: string, payload: unknown, filter?: (conn: FakeConnection) => boolean) => void;
