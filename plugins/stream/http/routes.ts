import type { PluginContext, PluginRouter } from "../../../core/plugin-api/index.ts";
import { STREAM } from "../tokens.ts";

export function mountStreamRoutes(router: PluginRouter, ctx: PluginContext): void {
  router.get(
    "/api/sse",
    {
      summary: "Live stream (Server-Sent Events): connected, ping, file_change and public bus events",
      description:
        "`text/event-stream` of `id: <id>` + `data: <json>` frames. Send `Last-Event-ID` to receive the frames missed since that id (from a bounded ring). 503 `STREAM_TOO_MANY_CLIENTS` beyond the connection cap.",
      raw: true,
    },
    ({ koa }) => {
      ctx.resolve(STREAM).open(koa.res, koa.get("last-event-id") || undefined);
      koa.status = 200;
      koa.respond = false;
    },
  );
}
