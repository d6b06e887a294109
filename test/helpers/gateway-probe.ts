// A test plugin that exposes `ctx.gateway` over HTTP, so tests observe the host's gateway
// client through the public surface: calls (and their errors as HTTP statuses and codes),
// the two-stage `agent` method, received events and state changes.
import { z } from "zod";
import { definePlugin, type GatewayStatus, type PluginDefinition } from "@muster/plugin";
import type { StartOptions, TestHost } from "./start-test-host.ts";
import { waitUntil } from "./wait.ts";

export interface ProbeRecord {
  states: GatewayStatus[];
  // `any` on purpose: event payloads are raw gateway protocol frames, each suite reads the fields it sent.
  events: { event: string; payload: any }[];
  hello: unknown;
  /** Streams opened by /stream so far (a test waits for it before sending events). */
  streamsOpened: number;
}

export const PROBE_EVENTS = ["chat", "agent", "cron", "shutdown", "sessions.changed", "custom"] as const;

export const gatewayProbe = definePlugin({
  id: "gateway-probe",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/gateway-probe"],
  routes(router, ctx) {
    const record: ProbeRecord = { states: [], events: [], hello: null, streamsOpened: 0 };
    ctx.gateway.onState((status) => record.states.push(status));
    for (const event of PROBE_EVENTS) ctx.gateway.on(event, (payload) => void record.events.push({ event, payload }));

    router.post(
      "/api/gateway-probe/request",
      { summary: "ctx.gateway.request", body: z.strictObject({ method: z.string().min(1), params: z.unknown().optional(), timeoutMs: z.number().int().positive().optional() }) },
      async ({ body }) => ({ ok: true, result: await ctx.gateway.request(body.method, body.params ?? {}, body.timeoutMs ? { timeoutMs: body.timeoutMs } : {}) }),
    );
    router.post(
      "/api/gateway-probe/agent",
      { summary: "ctx.gateway.agent", body: z.strictObject({ message: z.string(), idempotencyKey: z.string(), agentId: z.string().optional(), timeoutMs: z.number().int().positive().optional() }) },
      async ({ body }) => {
        const accepted: unknown[] = [];
        const { timeoutMs, ...params } = body;
        const final = await ctx.gateway.agent(params, { ...(timeoutMs ? { timeoutMs } : {}), onAccepted: (a) => void accepted.push(a) });
        return { ok: true, accepted, final };
      },
    );
    router.post(
      "/api/gateway-probe/ready",
      { summary: "ctx.gateway.ready(timeoutMs)", body: z.strictObject({ timeoutMs: z.number().int().min(0) }) },
      async ({ body }) => {
        await ctx.gateway.ready(body.timeoutMs);
        return { ok: true, status: ctx.gateway.status() };
      },
    );
    router.post(
      "/api/gateway-probe/stream",
      { summary: "Reads `count` events from ctx.gateway.events(event), slowly if asked", body: z.strictObject({ event: z.string(), count: z.number().int().min(1), bufferLimit: z.number().int().min(1).optional(), startAfterMs: z.number().int().min(0).optional() }) },
      async ({ body }) => {
        const controller = new AbortController();
        const stream = ctx.gateway.events(body.event, { signal: controller.signal, ...(body.bufferLimit ? { bufferLimit: body.bufferLimit } : {}) });
        const iterator = stream[Symbol.asyncIterator]();
        record.streamsOpened += 1;
        // A consumer that starts reading late: what arrived meanwhile waits in the buffer.
        if (body.startAfterMs) await new Promise((r) => setTimeout(r, body.startAfterMs));
        const payloads: unknown[] = [];
        while (payloads.length < body.count) {
          const next = await iterator.next();
          if (next.done) break;
          payloads.push(next.value);
        }
        controller.abort();
        const after = await iterator.next();
        return { ok: true, payloads, endedAfterAbort: after.done === true };
      },
    );
    router.get("/api/gateway-probe/record", { summary: "What the probe saw", query: z.strictObject({}) }, () => ({ ok: true, ...record, hello: ctx.gateway.hello(), status: ctx.gateway.status() }));
  },
});

/** Reconnects in tens of milliseconds (the token retry stays slow); handshake timeouts loose enough for a busy machine. */
export const FAST_GATEWAY_TIMINGS = { backoffInitialMs: 30, backoffMaxMs: 200, challengeTimeoutMs: 2_000, connectTimeoutMs: 3_000, stableAfterMs: 100, unauthorizedRetryMs: 60_000 };

/** Host options for a host with the probe, connected to `gatewayUrl` with `token` and fast clocks. */
export function probedHost(gatewayUrl: string, token: string, config: StartOptions["config"] = {}, plugins: PluginDefinition[] = [gatewayProbe]): StartOptions {
  return { extraPlugins: plugins, config: { gatewayUrl, gatewayToken: token, gatewayTimings: FAST_GATEWAY_TIMINGS, ...config } };
}

/** `/api/health`'s `gateway` block. */
export const gatewayHealth = async (h: TestHost) => (await h.json("/api/health")).body.gateway as GatewayStatus;

/** Waits until `/api/health` shows the gateway in `state`. */
export const waitForGatewayState = (h: TestHost, state: GatewayStatus["state"], timeoutMs = 3_000) =>
  waitUntil(async () => (await gatewayHealth(h)).state === state, { timeoutMs, label: `gateway state ${state}` });

/** What the probe plugin saw. */
export const probeRecord = async (h: TestHost) => (await h.json<ProbeRecord & { hello: any /* the raw hello-ok frame, read field by field */; status: GatewayStatus }>("/api/gateway-probe/record")).body;

/** The gateway's own error, as Muster passes it on in a GATEWAY_ERROR's `details`: a protocol frame, outside Muster's OpenAPI. */
export interface GatewayErrorFrame {
  code: string;
  message: string;
  details?: { code?: string; [field: string]: unknown };
}

/** The probe's answer: `result` is the gateway method's raw answer (a protocol frame, typed by the caller as `R`). */
export type ProbeAnswer<R> = { result: R; ok?: boolean; error?: { code: string; message: string; details: GatewayErrorFrame } };

/** `ctx.gateway.request(method, params)` through the probe: the HTTP status and body; `R` is the shape of the gateway method's answer the test reads. */
export const probeCall = <R = unknown>(h: TestHost, method: string, params: unknown = {}, timeoutMs?: number) =>
  h.json<ProbeAnswer<R>>("/api/gateway-probe/request", { method: "POST", body: { method, params, ...(timeoutMs ? { timeoutMs } : {}) } });
