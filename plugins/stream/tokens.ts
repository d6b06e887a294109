import type { ServerResponse } from "node:http";
import { token, type EventBus } from "@muster/plugin";
import type { StreamMessage } from "./services/frames.ts";
import type { StreamStats } from "./services/sse-hub.ts";

export type { StreamMessage, StreamStats };

/** The SSE hub: connected clients and the replay ring. */
export interface EventStream {
  /** Subscribes to the bus (public events, workspace file changes); returns the unsubscribe function. */
  attach(events: EventBus): () => void;
  /** Serves one SSE client, replaying what it missed after `lastEventId`. */
  open(res: ServerResponse, lastEventId: string | undefined): void;
  /** Sends a message to every client (and keeps it for replay). */
  broadcast(message: StreamMessage): void;
  stats(): StreamStats;
  /** Ends every stream (shutdown). */
  close(): void;
}

/** The SSE hub (connected clients and replay ring). Depend on the `stream` plugin to use it. */
export const STREAM = token<EventStream>("stream.hub");
