// `muster doctor`'s walk along the link to the gateway, one step at a time, so the first
// broken one can be named: TCP, WebSocket upgrade, connect.challenge, token, scopes,
// protocol, agents.list. It speaks exactly as the host's client does (handshake.ts).
import { connect as tcpConnect } from "node:net";
import WebSocket from "ws";
import type { DeviceIdentity } from "./device-identity.ts";
import { HARD_FRAME_CAP_BYTES, parseFrame, type ParsedFrame } from "./frames.ts";
import { classifyRefusal, connectParams, missingScopes, readHello } from "./handshake.ts";
import { GATEWAY_PROTOCOL } from "./timings.ts";

export type ProbeStep = "tcp" | "websocket" | "challenge" | "token" | "scopes" | "protocol" | "agents";

export interface ProbeResult {
  step: ProbeStep;
  status: "ok" | "fail" | "skipped";
  detail: string;
  fix?: string;
  /** The `agents` step: the ids agents.list named. */
  agentIds?: string[];
}

export interface ProbeOptions {
  url: string;
  token: string | null;
  scopes: string[];
  version: string;
  device: DeviceIdentity | null;
  /** Per step (default 5 s). */
  stepTimeoutMs?: number;
  /** How long to keep retrying while the gateway answers UNAVAILABLE (starting); default 15 s. */
  startingBudgetMs?: number;
}

const START_GATEWAY = "start the gateway: openclaw gateway run (or check GATEWAY_URL)";
const SET_TOKEN = "set GATEWAY_TOKEN to the gateway's token (gateway.auth.token in openclaw.json)";

/** Runs the steps in order; the first failure ends the walk (the caller prints the rest as skipped). */
export async function probeGateway(options: ProbeOptions): Promise<ProbeResult[]> {
  const results: ProbeResult[] = [];
  const timeout = options.stepTimeoutMs ?? 5_000;
  const target = new URL(options.url);
  const port = Number(target.port || (target.protocol === "wss:" ? 443 : 80));
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const where = `${host}:${port}`;

  const tcp = await tcpReachable(host, port, timeout);
  if (tcp !== true) return [{ step: "tcp", status: "fail", detail: `${where}: ${tcp}`, fix: START_GATEWAY }];
  results.push({ step: "tcp", status: "ok", detail: `${where} accepts connections` });

  const deadline = Date.now() + (options.startingBudgetMs ?? 15_000);
  for (;;) {
    const session = await openSession(options.url, timeout);
    if ("error" in session) {
      results.push({ step: "websocket", status: "fail", detail: session.error, fix: "point GATEWAY_URL at the gateway's port (default 18789); is another server listening there?" });
      return results;
    }
    try {
      if (!results.some((r) => r.step === "websocket")) results.push({ step: "websocket", status: "ok", detail: "WebSocket upgrade accepted" });
      const challenge = await session.next((f) => f.type === "event" && f.event === "connect.challenge", timeout);
      if (!challenge || challenge.type !== "event") {
        results.push({ step: "challenge", status: "fail", detail: `no connect.challenge within ${timeout} ms`, fix: "this does not look like an OpenClaw gateway (protocol v4); check GATEWAY_URL" });
        return results;
      }
      const payload = challenge.payload as { nonce?: unknown; ts?: unknown } | undefined;
      const nonce = typeof payload?.nonce === "string" && typeof payload.ts === "number" ? { nonce: payload.nonce, ts: payload.ts } : null;
      if (!results.some((r) => r.step === "challenge")) results.push({ step: "challenge", status: "ok", detail: "connect.challenge received" });

      if (!options.token && !options.device?.deviceToken) {
        results.push({ step: "token", status: "fail", detail: "GATEWAY_TOKEN is not set", fix: SET_TOKEN });
        return results;
      }
      const params = connectParams({ version: options.version, scopes: options.scopes, token: options.token, challenge: nonce, device: options.device });
      session.send({ type: "req", id: "doctor-connect", method: "connect", params });
      const answer = await session.next((f) => f.type === "res" && f.id === "doctor-connect", timeout);
      if (!answer || answer.type !== "res") {
        const closed = session.closeReason();
        if (closed && /token mismatch|unauthorized/i.test(closed)) results.push({ step: "token", status: "fail", detail: "the gateway refused the token (AUTH_TOKEN_MISMATCH)", fix: SET_TOKEN });
        else results.push({ step: "token", status: "fail", detail: closed ? `the gateway closed the connection: ${closed}` : `no answer to connect within ${timeout} ms` });
        return results;
      }
      if (!answer.ok) {
        const refusal = classifyRefusal(answer.error);
        if (refusal.kind === "starting" && Date.now() + refusal.retryAfterMs < deadline) {
          await new Promise((r) => setTimeout(r, refusal.retryAfterMs));
          continue;
        }
        if (refusal.kind === "protocol") {
          results.push({ step: "token", status: "skipped", detail: "not checked: the gateway refused the protocol first" });
          results.push({ step: "scopes", status: "skipped", detail: "not checked" });
          results.push({ step: "protocol", status: "fail", detail: refusal.reason, fix: `use an OpenClaw gateway that speaks protocol ${GATEWAY_PROTOCOL} (openclaw 2026.9.x), or a Muster that matches the gateway` });
          return results;
        }
        const fix =
          refusal.kind === "unauthorized"
            ? SET_TOKEN
            : refusal.kind === "pairing"
              ? `approve this device on the gateway: openclaw devices approve ${options.device?.id ?? "<device id>"}`
              : refusal.kind === "starting"
                ? "wait until the gateway has started (GET /readyz answers 200), then run doctor again"
                : undefined;
        results.push({ step: "token", status: "fail", detail: refusal.reason, ...(fix ? { fix } : {}) });
        return results;
      }
      const hello = readHello(answer.payload);
      results.push({ step: "token", status: "ok", detail: "token accepted" });
      const granted = hello?.scopes ?? [];
      const missing = missingScopes(options.scopes, granted);
      if (missing.length) {
        results.push({
          step: "scopes",
          status: "fail",
          detail: `granted [${granted.join(", ")}], missing ${missing.join(", ")}`,
          fix: options.device
            ? `approve this device on the gateway (openclaw devices approve ${options.device.id}) or grant it ${missing.join(", ")}`
            : "a gateway on another host grants no scopes without a paired device: set GATEWAY_DEVICE_IDENTITY=on, run muster doctor again and approve the device (openclaw devices approve <id>)",
        });
        return results;
      }
      results.push({ step: "scopes", status: "ok", detail: granted.join(", ") });
      if (!hello || hello.protocol !== GATEWAY_PROTOCOL) {
        results.push({ step: "protocol", status: "fail", detail: `the gateway speaks protocol ${hello?.protocol ?? "?"}, Muster speaks ${GATEWAY_PROTOCOL}`, fix: `use an OpenClaw gateway that speaks protocol ${GATEWAY_PROTOCOL}` });
        return results;
      }
      results.push({ step: "protocol", status: "ok", detail: `protocol ${hello.protocol}${hello.serverVersion ? `, gateway ${hello.serverVersion}` : ""}` });

      session.send({ type: "req", id: "doctor-agents", method: "agents.list", params: {} });
      const agents = await session.next((f) => f.type === "res" && f.id === "doctor-agents", timeout);
      if (!agents || agents.type !== "res") {
        results.push({ step: "agents", status: "fail", detail: `no answer to agents.list within ${timeout} ms` });
      } else if (!agents.ok) {
        results.push({ step: "agents", status: "fail", detail: `${agents.error.code}: ${agents.error.message}` });
      } else {
        const list = ((agents.payload as { agents?: Array<{ id?: unknown }> })?.agents ?? []).map((a) => String(a.id));
        if (list.length === 0) results.push({ step: "agents", status: "fail", detail: "the gateway has no agents", fix: "add an agent to openclaw.json (agents.entries)" });
        else results.push({ step: "agents", status: "ok", detail: `${list.length} agent${list.length === 1 ? "" : "s"}: ${list.join(", ")}`, agentIds: list });
      }
      return results;
    } finally {
      session.close();
    }
  }
}

function tcpReachable(host: string, port: number, timeoutMs: number): Promise<true | string> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host, port });
    const done = (result: true | string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(`no TCP answer within ${timeoutMs} ms`), timeoutMs);
    socket.once("connect", () => done(true));
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code === "ECONNREFUSED" ? "connection refused (nothing listens there)" : error.message));
  });
}

interface Session {
  send(frame: unknown): void;
  /** The next frame matching `match` (earlier non-matching ones are skipped), or null on timeout/close. */
  next(match: (frame: Exclude<ParsedFrame, { type: "invalid" }>) => boolean, timeoutMs: number): Promise<Exclude<ParsedFrame, { type: "invalid" }> | null>;
  closeReason(): string | null;
  close(): void;
}

function openSession(url: string, timeoutMs: number): Promise<Session | { error: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { handshakeTimeout: timeoutMs, maxPayload: HARD_FRAME_CAP_BYTES, perMessageDeflate: false });
    const queue: Exclude<ParsedFrame, { type: "invalid" }>[] = [];
    let waiter: (() => void) | undefined;
    let closed: string | null = null;
    ws.on("message", (data: Buffer) => {
      const frame = parseFrame(data, HARD_FRAME_CAP_BYTES);
      if (frame.type === "invalid") return;
      queue.push(frame);
      waiter?.();
    });
    ws.on("close", (code: number, reason: Buffer) => {
      closed = `close ${code}${reason.length ? ` ${reason.toString()}` : ""}`;
      waiter?.();
    });
    ws.on("unexpected-response", (_req, res) => {
      resolve({ error: `the server answered HTTP ${res.statusCode} instead of a WebSocket upgrade` });
      ws.terminate();
    });
    ws.on("error", (error) => resolve({ error: `WebSocket upgrade failed: ${error.message}` }));
    ws.on("open", () =>
      resolve({
        send: (frame) => ws.send(JSON.stringify(frame)),
        async next(match, ms) {
          const deadline = Date.now() + ms;
          for (;;) {
            const index = queue.findIndex(match);
            if (index >= 0) return queue.splice(index, 1)[0]!;
            if (closed || Date.now() >= deadline) return null;
            await new Promise<void>((r) => {
              const timer = setTimeout(r, deadline - Date.now());
              waiter = () => {
                clearTimeout(timer);
                r();
              };
            });
            waiter = undefined;
          }
        },
        closeReason: () => closed,
        close: () => (ws.readyState === WebSocket.OPEN ? ws.close(1000, "doctor done") : ws.terminate()),
      }),
    );
  });
}
