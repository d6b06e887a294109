// A small SSE client over node:http for tests: parses frames as they arrive and waits for
// the ones a test expects, every wait bounded by a timeout.
import { request, type IncomingHttpHeaders } from "node:http";
import { scaled } from "./time-scale.ts";

export interface SseFrame {
  id?: string;
  event?: string;
  /** The `data:` value parsed as JSON (raw string when it is not JSON). */
  data: any; // `any` on purpose: each SSE event type has its own payload, read by the suite that expects it
  /** The frame's text exactly as received. */
  raw: string;
}

export interface SseConnection {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every frame received so far. */
  frames: SseFrame[];
  /** Body text of a non-200 answer. */
  body: string;
  /** Resolves with the first frame (already received or future) matching `predicate`. */
  next(predicate: (frame: SseFrame) => boolean, timeoutMs?: number, label?: string): Promise<SseFrame>;
  /** Resolves when the server ends the stream or the connection closes. */
  ended: Promise<void>;
  isEnded(): boolean;
  close(): void;
}

export function openSse(baseUrl: string, options: { headers?: Record<string, string>; path?: string; timeoutMs?: number } = {}): Promise<SseConnection> {
  const url = new URL(options.path ?? "/api/sse", baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "GET", agent: false, headers: { accept: "text/event-stream", ...options.headers } });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error("SSE connect timed out"));
    }, options.timeoutMs ?? 5_000);
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.on("response", (res) => {
      clearTimeout(timer);
      const frames: SseFrame[] = [];
      const waiters = new Set<{ predicate: (f: SseFrame) => boolean; resolve: (f: SseFrame) => void }>();
      let buffer = "";
      let body = "";
      let ended = false;
      let endResolve!: () => void;
      const endedPromise = new Promise<void>((r) => (endResolve = r));
      const finish = () => {
        if (ended) return;
        ended = true;
        endResolve();
      };
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        if (res.statusCode !== 200) {
          body += chunk;
          return;
        }
        buffer += chunk;
        let index: number;
        while ((index = buffer.indexOf("\n\n")) >= 0) {
          const raw = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          const frame = parseFrame(raw);
          frames.push(frame);
          for (const waiter of [...waiters]) {
            if (waiter.predicate(frame)) {
              waiters.delete(waiter);
              waiter.resolve(frame);
            }
          }
        }
      });
      res.on("end", finish);
      res.on("close", finish);
      res.on("error", finish);
      req.on("close", finish);
      const connection: SseConnection = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        frames,
        get body() {
          return body;
        },
        next(predicate, bound = 3_000, label = "frame") {
          // An upper bound for a loaded machine (time-scale.ts); the frame itself is awaited.
          const timeoutMs = scaled(bound);
          const found = frames.find(predicate);
          if (found) return Promise.resolve(found);
          return new Promise((resolveFrame, rejectFrame) => {
            const waiter = {
              predicate,
              resolve: (f: SseFrame) => {
                clearTimeout(t);
                resolveFrame(f);
              },
            };
            const t = setTimeout(() => {
              waiters.delete(waiter);
              rejectFrame(new Error(`timed out after ${timeoutMs} ms waiting for ${label}; got ${JSON.stringify(frames.map((f) => f.data?.type + ":" + (f.data?.name ?? f.data?.event?.path ?? "")))}`));
            }, timeoutMs);
            waiters.add(waiter);
          });
        },
        ended: endedPromise,
        isEnded: () => ended,
        close() {
          req.destroy();
          res.destroy();
        },
      } as SseConnection;
      if (res.statusCode === 200) resolve(connection);
      else res.on("end", () => resolve(connection));
    });
    req.end();
  });
}

function parseFrame(raw: string): SseFrame {
  const frame: SseFrame = { data: undefined, raw };
  const data: string[] = [];
  for (const line of raw.split("\n")) {
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") frame.id = value;
    else if (field === "event") frame.event = value;
    else if (field === "data") data.push(value);
  }
  const text = data.join("\n");
  try {
    frame.data = JSON.parse(text);
  } catch {
    frame.data = text;
  }
  return frame;
}
