import type { Context } from "koa";
import { MusterError, type Logger } from "@muster/plugin";

const HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // Replies may carry workspace data; nothing between here and the reader keeps them.
  "Cache-Control": "no-store, no-transform",
  "X-Accel-Buffering": "no",
};

/** A chat's SSE answer: `data: <json>` frames, no event names (DESIGN §14.2). */
export interface ChatStream {
  send(frame: Record<string, unknown> & { type: string }): void;
  /** Sends `{type:"error", code, message}` for a failure (a generic one for anything not coded). */
  fail(error: unknown): void;
  end(): void;
}

/**
 * Takes over the response as an event stream. Each frame is one JSON-encoded `data:` line,
 * so text containing newlines or `event:` lines can never forge a frame. Writes after the
 * client left are dropped.
 */
export function openChatStream(koa: Context, logger: Logger): ChatStream {
  koa.respond = false;
  koa.res.writeHead(200, HEADERS);
  koa.res.flushHeaders();
  const res = koa.res;
  const open = () => !res.destroyed && !res.writableEnded;
  return {
    send(frame) {
      if (open()) res.write(`data: ${JSON.stringify(frame)}\n\n`);
    },
    fail(error) {
      if (error instanceof MusterError) return this.send({ type: "error", code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) });
      logger.error({ err: error, requestId: koa.state.requestId }, "chat stream failed");
      this.send({ type: "error", code: "INTERNAL_ERROR", message: "Internal error; the server log has the details under this request id" });
    },
    end() {
      if (open()) res.end();
    },
  };
}
