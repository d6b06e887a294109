import type { WorkspaceFileChange } from "./workspace.ts";

/**
 * Every event's name and payload type. The host declares its own here; each plugin adds
 * its map from its `events.ts` by declaration merging, so `publish` and `subscribe` check
 * names and payloads against every plugin compiled together:
 *
 * @example
 * export interface NoteEvents { "notes.note.created": NoteRecord }
 * declare module "@muster/plugin" { interface MusterEvents extends NoteEvents {} }
 */
export interface MusterEvents {
  /** A watched workspace file was added, changed or removed (see `WORKSPACE_FILE_CHANGED`). */
  "workspace.file.changed": WorkspaceFileChange;
  /** A markdown or YAML file elsewhere in the workspace was added, changed or removed (see `WORKSPACE_DOCUMENT_CHANGED`). */
  "workspace.document.changed": WorkspaceFileChange;
}

/** A known event name. */
export type EventName = keyof MusterEvents & string;

/**
 * One typed in-process event bus. Names are `<plugin>.<entity>.<past-tense-verb>`
 * (`work.task.created`). Publish only after the database write has committed.
 * Events marked `public` are forwarded to SSE clients as `{type:"event", name, payload}`.
 */
export interface MusterEvent<P = unknown> {
  name: string;
  payload: P;
  /** Epoch milliseconds. */
  timestamp: number;
  public: boolean;
}

export type EventHandler<P = unknown> = (event: MusterEvent<P>) => void | Promise<void>;

/** A pattern matching many names: `*` for all, or a prefix ending in `.*` (`work.*`). */
export type EventPattern = "*" | `${string}.*`;

export interface EventBus {
  /**
   * Delivers the event to every matching subscriber asynchronously; a failing handler is
   * logged and never affects the publisher or other handlers.
   */
  publish<N extends EventName>(name: N, payload: MusterEvents[N], options?: { public?: boolean }): void;
  /** Subscribes to one exact name, with its payload typed. Returns the function that unsubscribes. */
  subscribe<N extends EventName>(name: N, handler: EventHandler<MusterEvents[N]>): () => void;
  /** Subscribes to a prefix ending in `.*` (`work.*`) or `*` for all. Returns the function that unsubscribes. */
  subscribe(pattern: EventPattern, handler: EventHandler): () => void;
}
