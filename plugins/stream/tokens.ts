import { token } from "@muster/plugin";
import type { SseHub } from "./services/sse-hub.ts";

/** The SSE hub (connected clients and replay ring). Depend on the `stream` plugin to use it. */
export const STREAM = token<SseHub>("stream.hub");
