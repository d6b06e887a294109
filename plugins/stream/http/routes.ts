import type { PluginContext, PluginRouter } from "@muster/plugin";
import { STREAM } from "../tokens.ts";

export function mountStreamRoutes(router: PluginRouter, ctx: PluginContext): void {
  router.get(
    "/api/sse",
    {
      summary: "Live stream (Server-Sent Events): connected, ping, file_change and public bus events",
      description:
        "`text/event-stream` of `id: <id>` + `data: <json>` frames. Send `Last-Event-ID` (or `?lastEventId=`, for EventSource polyfills) to receive the frames missed since that id, from a bounded ring. 503 `STREAM_TOO_MANY_CLIENTS` beyond the connection cap.",
      raw: true,
    },
    ({ koa }) => {
      if (koa.method === "HEAD") {
        // A HEAD request gets the stream's headers, not an open stream that would hold a slot.
        koa.status = 200;
        koa.type = "text/event-stream";
        return;
      }
      const fromQuery = typeof koa.query.lastEventId === "string" ? koa.query.lastEventId : undefined;
      ctx.resolve(STREAM).open(koa.res, koa.get("last-event-id") || fromQuery);
      koa.status = 200;
      koa.respond = false;
    },
  );
}
