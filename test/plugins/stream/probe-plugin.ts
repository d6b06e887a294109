// A test-only plugin: publishes bus events on request and reports the stream hub's stats,
// so the SSE tests drive everything through HTTP.
import { defineRoutes, definePlugin, hostTokens, z } from "@muster/plugin";
import { STREAM } from "../../../plugins/stream/tokens.ts";

/** The probe publishes whatever `probe.*` event a test asks for. */
export interface ProbeEvents {
  [name: `probe.${string}`]: { n: number; pad?: string; value?: unknown };
}

declare module "@muster/plugin" {
  interface MusterEvents extends ProbeEvents {}
}

export const probePlugin = definePlugin({
  id: "stream-probe",
  version: "1.0.0",
  host: "^1.0.0",
  dependsOn: ["stream"],
  paths: ["/api/stream-probe"],
  routes: defineRoutes({
    deps: { stream: STREAM, events: hostTokens.events },
    mount: (router, { stream, events }) => {
      router.post(
        "/api/stream-probe/publish",
        {
          summary: "publish test events",
          body: z.strictObject({
            name: z.string().default("probe.thing.happened"),
            payload: z.unknown().optional(),
            public: z.boolean().default(true),
            count: z.number().int().min(1).max(1000).default(1),
            padBytes: z.number().int().min(0).max(4 * 1024 * 1024).default(0),
          }),
        },
        ({ body }) => {
          const pad = body.padBytes ? "x".repeat(body.padBytes) : undefined;
          for (let i = 0; i < body.count; i++) {
            events.publish(body.name as `probe.${string}`, { n: i, ...(pad ? { pad } : {}), ...(body.payload !== undefined ? { value: body.payload } : {}) }, { public: body.public });
          }
          return { ok: true, at: Date.now() };
        },
      );
      router.get("/api/stream-probe/stats", { summary: "stream stats" }, () => ({ ok: true, ...stream.stats() }));
      // A response that stays open until released: what a pipelined request waits behind.
      let release: (() => void) | undefined;
      router.get("/api/stream-probe/hold", { summary: "answers once released" }, async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return { ok: true };
      });
      router.post("/api/stream-probe/release", { summary: "releases the held answer" }, () => {
        const held = release !== undefined;
        release?.();
        release = undefined;
        return { ok: true, held };
      });
    },
  }),
});
