import { definePlugin } from "@muster/plugin";
import { streamConfigSchema, type StreamConfig } from "./config.ts";
import { mountStreamRoutes } from "./http/routes.ts";
import { registerStreamServices } from "./services/register.ts";
import { startStream, stopStream } from "./services/lifecycle.ts";

/** `GET /api/sse`: the live stream of workspace file changes and public bus events. */
export const streamPlugin = definePlugin<StreamConfig>({
  id: "stream",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/sse"],
  config: streamConfigSchema,
  register: registerStreamServices,
  routes: mountStreamRoutes,
  onStart: startStream,
  onStop: stopStream,
});

export default streamPlugin;
