// A bare protocol v4 client over `ws`, independent of Muster's own gateway client: the
// handshake test checks the real gateway with it, and bench:gateway uses it as the
// baseline that Muster's added latency is measured against. Deliberately minimal: no
// reconnects, no validation beyond what a test needs.
import { randomUUID } from "node:crypto";
import WebSocket from "ws";

export interface GatewayFrame {
  type: "req" | "res" | "event";
  id?: string;
  ok?: boolean;
  payload?: any;
  error?: { code: string; message: string; details?: Record<string, unknown> };
  event?: string;
  seq?: number;
}

export const OPERATOR_SCOPES = ["operator.read", "operator.write", "operator.admin"];

export interface BareClient {
  /** `connect.challenge`'s payload, as received before `connect`. */
  challenge: { nonce: string; ts: number };
  /** The `hello-ok` payload. */
  hello: any;
  call(method: string, params?: unknown, timeoutMs?: number): Promise<any>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on(event: string, listener: (payload: any) => void): () => void;
  close(): Promise<void>;
}

export class GatewayCallError extends Error {
  readonly method: string;
  readonly error: NonNullable<GatewayFrame["error"]>;
  constructor(method: string, error: NonNullable<GatewayFrame["error"]>) {
    super(`${method}: ${error.code} ${error.message}`);
    this.method = method;
    this.error = error;
  }
}

/** Opens a socket, waits for the challenge, sends `connect` and resolves on `hello-ok`. */
export async function connectBare(url: string, token: string, options: { scopes?: string[]; timeoutMs?: number } = {}): Promise<BareClient> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const ws = new WebSocket(url, { handshakeTimeout: timeoutMs });
  const pending = new Map<string, { method: string; resolve: (payload: any) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  const listeners = new Map<string, Set<(payload: any) => void>>();
  let nextId = 1;
  let challengeSeen: (payload: any) => void;
  const challenge = new Promise<any>((resolve) => (challengeSeen = resolve));

  ws.on("message", (data) => {
    let frame: GatewayFrame;
    try {
      frame = JSON.parse(String(data));
    } catch {
      return;
    }
    if (frame.type === "event" && frame.event === "connect.challenge") challengeSeen(frame.payload);
    if (frame.type === "event" && frame.event) for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload);
    if (frame.type === "res" && frame.id) {
      const waiter = pending.get(frame.id);
      if (!waiter) return; // e.g. the second answer of `agent`
      pending.delete(frame.id);
      clearTimeout(waiter.timer);
      if (frame.ok) waiter.resolve(frame.payload);
      else waiter.reject(new GatewayCallError(waiter.method, frame.error ?? { code: "UNKNOWN", message: "ok:false without error" }));
    }
  });
  ws.on("close", (code, reason) => {
    for (const [id, waiter] of pending) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error(`${waiter.method}: socket closed (${code} ${reason})`));
      pending.delete(id);
    }
  });

  const call = (method: string, params: unknown = {}, callTimeoutMs = timeoutMs) =>
    new Promise<any>((resolve, reject) => {
      const id = String(nextId++);
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${method}: no answer within ${callTimeoutMs} ms`));
      }, callTimeoutMs);
      pending.set(id, { method, resolve, reject, timer });
      ws.send(JSON.stringify({ type: "req", id, method, params }));
    });

  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  const challengePayload = await withTimeout(challenge, timeoutMs, "connect.challenge");
  const hello = await call("connect", {
    minProtocol: 4,
    maxProtocol: 4,
    client: { id: "gateway-client", version: "0.0.1", platform: "linux", mode: "backend" },
    role: "operator",
    scopes: options.scopes ?? OPERATOR_SCOPES,
    auth: { token },
  }).catch((error) => {
    ws.terminate();
    throw error;
  });

  return {
    challenge: challengePayload,
    hello,
    call,
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
    close() {
      if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
      return new Promise((resolve) => {
        ws.once("close", () => resolve());
        ws.close();
      });
    },
  };
}

/** `chat.send` and the run's terminal `chat` event, with the time of the first delta. */
export async function bareChat(client: BareClient, agentId: string, message: string, sessionKey = `agent:${agentId}:bare-${randomUUID()}`, timeoutMs = 60_000) {
  const runId = randomUUID();
  const started = performance.now();
  let firstDeltaAt: number | undefined;
  const done = new Promise<{ state: string; text: string; endedAt: number }>((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`chat run ${runId} did not end within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = client.on("chat", (payload) => {
      if (payload?.runId !== runId) return;
      if (payload.state === "delta" && firstDeltaAt === undefined) firstDeltaAt = performance.now();
      if (payload.state === "final" || payload.state === "aborted" || payload.state === "error") {
        clearTimeout(timer);
        off();
        const content = payload.message?.content;
        const text = Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? "").join("") : String(content ?? payload.errorMessage ?? "");
        resolve({ state: payload.state, text, endedAt: performance.now() });
      }
    });
  });
  await client.call("chat.send", { sessionKey, agentId, message, idempotencyKey: runId });
  const end = await done;
  return { runId, sessionKey, state: end.state, text: end.text, started, firstDeltaAt, endedAt: end.endedAt };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
