// Gateway events to plugin listeners: callbacks (`on`) and async streams (`events`). A
// listener that throws is logged and skipped; it never reaches the socket's read loop. A
// stream buffers up to its limit and then drops the oldest, so a slow consumer costs
// bounded memory.
import type { Logger } from "pino";

type Listener = (payload: unknown) => void;

export class EventStreams {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Listeners of every event (the leased link relays them all to the other instances). */
  private readonly everyEvent = new Set<(event: string, payload: unknown) => void>();
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger;
  }

  on(event: string, listener: Listener): () => void {
    const set = this.listeners.get(event) ?? this.listeners.set(event, new Set()).get(event)!;
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(event);
    };
  }

  onAny(listener: (event: string, payload: unknown) => void): () => void {
    this.everyEvent.add(listener);
    return () => this.everyEvent.delete(listener);
  }

  emit(event: string, payload: unknown): void {
    for (const listener of [...this.everyEvent]) {
      try {
        listener(event, payload);
      } catch (error) {
        this.logger.warn({ err: error, event }, "a gateway event relay threw; ignored");
      }
    }
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(payload);
      } catch (error) {
        this.logger.warn({ err: error, event }, "a gateway event listener threw; ignored");
      }
    }
  }

  /** Listeners currently registered (for leak checks). */
  get listenerCount(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  events(event: string, options: { signal?: AbortSignal; bufferLimit?: number } = {}): AsyncIterable<unknown> {
    const streams = this;
    return {
      [Symbol.asyncIterator]() {
        const limit = Math.max(1, options.bufferLimit ?? 10_000);
        const buffer: unknown[] = [];
        let wake: (() => void) | undefined;
        let ended = options.signal?.aborted ?? false;
        let dropped = 0;
        const unsubscribe = ended
          ? () => {}
          : streams.on(event, (payload) => {
              if (buffer.length >= limit) {
                buffer.shift();
                if (dropped++ === 0) streams.logger.warn({ event, bufferLimit: limit }, "gateway event stream consumer too slow; oldest events dropped");
              }
              buffer.push(payload);
              wake?.();
            });
        const end = () => {
          ended = true;
          unsubscribe();
          wake?.();
        };
        options.signal?.addEventListener("abort", end, { once: true });
        return {
          async next(): Promise<IteratorResult<unknown>> {
            for (;;) {
              if (buffer.length > 0) return { value: buffer.shift(), done: false };
              if (ended) return { value: undefined, done: true };
              await new Promise<void>((r) => (wake = r));
              wake = undefined;
            }
          },
          async return(): Promise<IteratorResult<unknown>> {
            options.signal?.removeEventListener("abort", end);
            end();
            buffer.length = 0;
            return { value: undefined, done: true };
          },
        };
      },
    };
  }
}
