// The live stream (`GET /api/sse`) for programs: frames as parsed objects, reconnecting with
// backoff and `Last-Event-ID`, so a dropped connection loses nothing the server still holds.
import { headersFor, type MusterClientConfig } from "./transport.ts";

/** One frame of the stream: `id` is what `Last-Event-ID` resumes from. */
export interface MusterStreamEvent {
  id: string | null;
  /** The frame's JSON (`{ type, data, timestamp, … }`, see the stream docs). */
  data: unknown;
}

export interface SubscribeParameters {
  onEvent: (event: MusterStreamEvent) => void;
  /** A connection failed or ended; the client reconnects by itself unless `signal` aborted. */
  onError?: (error: Error) => void;
  /** Called when (re)connected. */
  onOpen?: () => void;
  /** Resume after this id (e.g. one stored from a previous run). */
  lastEventId?: string;
  /** Stops the subscription. */
  signal?: AbortSignal;
  /** Longest wait between reconnects (default 30 s; the first waits ~0.5 s). */
  maxRetryMs?: number;
}

export interface Subscription {
  /** The id of the newest frame received. */
  readonly lastEventId: string | null;
  close(): void;
  /** Resolves when closed (by `close()` or the signal). */
  readonly closed: Promise<void>;
}

/**
 * Subscribes to the server's live stream.
 *
 * @example
 * const sub = subscribe({ url: "http://127.0.0.1:3333" }, { onEvent: (e) => console.log(e.data) });
 * // later
 * sub.close();
 */
export function subscribe(config: MusterClientConfig, parameters: SubscribeParameters): Subscription {
  const stop = new AbortController();
  parameters.signal?.addEventListener("abort", () => stop.abort(), { once: true });
  let lastEventId = parameters.lastEventId ?? null;
  const maxRetryMs = parameters.maxRetryMs ?? 30_000;

  const run = async () => {
    let failures = 0;
    while (!stop.signal.aborted) {
      try {
        const headers = headersFor(config, { accept: "text/event-stream" });
        if (lastEventId) headers.set("last-event-id", lastEventId);
        const response = await (config.fetch ?? fetch)(new URL("/api/sse", config.url), { headers, signal: stop.signal });
        if (!response.ok || !response.body) throw new Error(`GET /api/sse answered ${response.status}`);
        failures = 0;
        parameters.onOpen?.();
        for await (const frame of frames(response.body)) {
          if (frame.id !== null) lastEventId = frame.id;
          parameters.onEvent(frame);
        }
        throw new Error("the stream ended");
      } catch (error) {
        if (stop.signal.aborted) break;
        parameters.onError?.(error as Error);
        failures++;
        const wait = Math.min(maxRetryMs, 500 * 2 ** (failures - 1)) * (0.5 + Math.random() / 2);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          stop.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
        });
      }
    }
  };
  const closed = run();
  return {
    get lastEventId() {
      return lastEventId;
    },
    close: () => stop.abort(),
    closed,
  };
}

/** Parses `text/event-stream` bytes into frames (id + data; comments and other fields ignored). */
async function* frames(body: ReadableStream<Uint8Array>): AsyncGenerator<MusterStreamEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.search(/\r?\n\r?\n/)) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer[end] === "\r" ? 4 : 2));
      let id: string | null = null;
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith("id:")) id = line.slice(3).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length === 0) continue;
      const text = data.join("\n");
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON: hand over the text */
      }
      yield { id, data: parsed };
    }
  }
}
