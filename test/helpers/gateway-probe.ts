// A test plugin that exposes `ctx.gateway` over HTTP, so tests observe the host's gateway
// client through the public surface: calls (and their errors as HTTP statuses and codes),
// the two-stage `agent` method, received events and state changes.
import { z } from "zod";
import { definePlugin, type GatewayStatus } from "@muster/plugin";

export interface ProbeRecord {
  states: GatewayStatus[];
  events: { event: string; payload: any }[];
  hello: unknown;
}

export const PROBE_EVENTS = ["chat", "agent", "cron", "shutdown", "sessions.changed", "custom"] as const;

export const gatewayProbe = definePlugin({
  id: "gateway-probe",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/gateway-probe"],
  routes(router, ctx) {
    const record: ProbeRecord = { states: [], events: [], hello: null };
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
    router.get("/api/gateway-probe/record", { summary: "What the probe saw", query: z.strictObject({}) }, () => ({ ok: true, ...record, hello: ctx.gateway.hello(), status: ctx.gateway.status() }));
  },
});
