import { definePlugin } from "@muster/plugin";
import { streamConfigSchema, type StreamConfig } from "./config.ts";
import { streamRoutes } from "./http/routes.ts";
import { streamMetrics } from "./metrics.ts";
import { registerStreamServices } from "./services/register.ts";
import { startStream, stopStream } from "./services/lifecycle.ts";
import { STREAM_EVENT_FAMILIES } from "./tokens.ts";
import { StreamFrame, StreamOrigin } from "./entities/stream-frame.ts";
import { migrations } from "./migrations.ts";

/** `GET /api/sse`: the live stream of workspace file changes and public bus events. */
export const streamPlugin = definePlugin<StreamConfig>({
  id: "stream",
  version: "1.0.0",
  host: "^1.0.0",
  // Its client counts on GET /metrics when the metrics plugin is loaded.
  optionalDependsOn: ["metrics"],
  paths: ["/api/sse"],
  config: streamConfigSchema,
  // Team mode's shared frames (team-relay.ts); unused on SQLite.
  entities: [StreamFrame, StreamOrigin],
  migrations,
  // Publishers describe their public events here (GET /api/sse/families).
  extensionPoints: [STREAM_EVENT_FAMILIES],
  contributions: [streamMetrics],
  register: registerStreamServices,
  routes: streamRoutes,
  onStart: startStream,
  onStop: stopStream,
});

export default streamPlugin;
