import type { ServerResponse } from "node:http";
import { extensionPoint, token, type EventBus } from "@muster/plugin";
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

/**
 * A family of public bus events a plugin publishes, as listed by `GET /api/sse/families`:
 * what a client of the live stream can expect, and what the dashboard refreshes on.
 * (Which events reach the stream is still decided by `publish(..., { public: true })`.)
 */
export interface EventFamily {
  /** The events' names: one exact name (`activities.activity.created`) or a prefix ending in `.*` (`work.*`); it starts with the contributing plugin's id. */
  pattern: string;
  /** What the events report, in one sentence. */
  description: string;
}

/** Where plugins describe the public events they publish (`contribute(STREAM_EVENT_FAMILIES, { pattern, description })`). */
export const STREAM_EVENT_FAMILIES = extensionPoint<EventFamily>("stream.eventFamilies");
