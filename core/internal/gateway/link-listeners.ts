// What every GatewayClient of the host does alike with its listeners, whoever holds the
// connection (client.ts owns one; leased-link.ts may go through another instance's): gateway
// events to `on`/`events`/`onAny`, state changes to `onState`, and `ready` waiting for
// `connected`. A subclass says what its status is and whether waiting makes sense.
import type { Logger } from "pino";
import type { GatewayStatus } from "../../plugin-api/gateway.ts";
import { EventStreams } from "./event-streams.ts";
import { notConnectedError } from "./not-connected.ts";
import { waitForConnected } from "./wait-connected.ts";

export abstract class LinkListeners {
  protected readonly streams: EventStreams;
  protected readonly stateListeners = new Set<(status: GatewayStatus) => void>();
  protected readonly listenerLogger: Logger;

  constructor(logger: Logger) {
    this.listenerLogger = logger;
    this.streams = new EventStreams(logger);
  }

  abstract status(): GatewayStatus;
  /** False once waiting can never end in `connected` (disabled, stopped). */
  protected abstract mayConnect(): boolean;

  onState(listener: (status: GatewayStatus) => void): () => void {
    this.stateListeners.add(listener);
    this.notify(listener);
    return () => this.stateListeners.delete(listener);
  }

  ready(timeoutMs = 0): Promise<void> {
    if (this.status().state === "connected") return Promise.resolve();
    if (timeoutMs <= 0 || !this.mayConnect()) return Promise.reject(notConnectedError(this.status()));
    return waitForConnected((listener) => this.onState(listener), timeoutMs, () => Promise.reject(notConnectedError(this.status())));
  }

  on(event: string, listener: (payload: any) => void): () => void {
    return this.streams.on(event, listener);
  }

  events(event: string, options?: { signal?: AbortSignal; bufferLimit?: number }): AsyncIterable<any> {
    return this.streams.events(event, options);
  }

  onAny(listener: (event: string, payload: unknown) => void): () => void {
    return this.streams.onAny(listener);
  }

  /** Tells every state listener the current status. */
  protected notifyAll(): void {
    for (const listener of [...this.stateListeners]) this.notify(listener);
  }

  private notify(listener: (status: GatewayStatus) => void): void {
    try {
      listener(this.status());
    } catch (error) {
      this.listenerLogger.warn({ err: error }, "a gateway state listener threw; ignored");
    }
  }
}
