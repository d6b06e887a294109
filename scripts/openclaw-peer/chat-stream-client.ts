// A client for Muster's streamed chat (`POST /api/chat` with `Accept: text/event-stream`,
// DESIGN §14.2): each `data:` frame parsed as it arrives, with the time it arrived, so the
// real-peer tests can wait for a frame and abort mid-stream by closing the connection, and
// bench:gateway can time the first delta and the end.
import { request } from "node:http";

export interface ChatFrame {
  type: string;
  /** `performance.now()` when the frame was parsed. */
  at: number;
  [field: string]: unknown;
}

export interface ChatStreamConnection {
  status: number;
  /** The whole body when the answer was not a stream (an error envelope). */
  body: string;
  frames: ChatFrame[];
  /** Resolves with the first frame (past or future) matching `predicate`. */
  next(predicate: (frame: ChatFrame) => boolean, timeoutMs?: number, label?: string): Promise<ChatFrame>;
  /** Resolves when the server ends the stream or the connection closes. */
  ended: Promise<void>;
  /** Closes the connection from the client side (what an abort looks like to Muster). */
  close(): void;
}

export function postChatStream(baseUrl: string, body: unknown, headers: Record<string, string> = {}, connectTimeoutMs = 10_000): Promise<ChatStreamConnection> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(new URL("/api/chat", baseUrl), {
      method: "POST",
      agent: false,
      headers: { accept: "text/event-stream", "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...headers },
    });
    const timer = setTimeout(() => req.destroy(new Error(`POST /api/chat: no answer within ${connectTimeoutMs} ms`)), connectTimeoutMs);
    req.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.once("response", (res) => {
      clearTimeout(timer);
      const frames: ChatFrame[] = [];
      const waiters = new Set<(frame: ChatFrame) => void>();
      let buffer = "";
      let text = "";
      let endResolve!: () => void;
      const ended = new Promise<void>((r) => (endResolve = r));
      const streaming = String(res.headers["content-type"] ?? "").startsWith("text/event-stream");
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        if (!streaming) {
          text += chunk;
          return;
        }
        buffer += chunk;
        let index: number;
        while ((index = buffer.indexOf("\n\n")) >= 0) {
          const raw = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          const data = raw
            .split("\n")
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).replace(/^ /, ""))
            .join("\n");
          if (!data) continue; // a comment or keep-alive
          const frame = { ...(JSON.parse(data) as { type: string }), at: performance.now() } as ChatFrame;
          frames.push(frame);
          for (const waiter of [...waiters]) waiter(frame);
        }
      });
      res.once("close", () => endResolve());
      const connection: ChatStreamConnection = {
        status: res.statusCode ?? 0,
        get body() {
          return text;
        },
        frames,
        next(predicate, timeoutMs = 60_000, label = "a chat frame") {
          const found = frames.find(predicate);
          if (found) return Promise.resolve(found);
          return new Promise((resolveFrame, rejectFrame) => {
            const waiter = (frame: ChatFrame) => {
              if (!predicate(frame)) return;
              waiters.delete(waiter);
              clearTimeout(t);
              resolveFrame(frame);
            };
            const t = setTimeout(() => {
              waiters.delete(waiter);
              rejectFrame(new Error(`timed out after ${timeoutMs} ms waiting for ${label}; got ${frames.map((f) => f.type).join(", ") || "no frames"}`));
            }, timeoutMs);
            waiters.add(waiter);
          });
        },
        ended,
        close() {
          res.destroy();
          req.destroy();
        },
      };
      if (streaming) resolve(connection);
      else res.once("end", () => resolve(connection));
    });
    req.end(payload);
  });
}
