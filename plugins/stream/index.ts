import { definePlugin, defineService } from "@muster/plugin";
import { streamConfigSchema, type StreamConfig } from "./config.ts";
import { mountStreamRoutes } from "./http/routes.ts";
import { SseHub } from "./services/sse-hub.ts";
import { STREAM } from "./tokens.ts";

/** `GET /api/sse`: the live stream of workspace file changes and public bus events. */
export const streamPlugin = definePlugin<StreamConfig>({
  id: "stream",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/sse"],
  config: streamConfigSchema,
  register(ctx) {
    ctx.provide(defineService({ token: STREAM, deps: {}, create: (_deps, c) => new SseHub({ config: c.config as StreamConfig, logger: c.logger }) }));
  },
  routes: mountStreamRoutes,
  onStart(ctx) {
    ctx.lifecycle.onStop(ctx.resolve(STREAM).attach(ctx.events));
  },
  onStop(ctx) {
    ctx.resolve(STREAM).close();
  },
});

export default streamPlugin;
