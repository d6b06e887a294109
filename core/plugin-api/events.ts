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

export type EventHandler = (event: MusterEvent) => void | Promise<void>;

export interface EventBus {
  /**
   * Delivers the event to every matching subscriber asynchronously; a failing handler is
   * logged and never affects the publisher or other handlers.
   */
  publish<P>(name: string, payload: P, options?: { public?: boolean }): void;
  /**
   * Subscribes to one exact name, a prefix ending in `.*` (`work.*`), or `*` for all.
   * Returns the function that unsubscribes.
   */
  subscribe(pattern: string, handler: EventHandler): () => void;
}
