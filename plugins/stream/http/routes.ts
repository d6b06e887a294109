import { defineRoutes, z, type PluginRouter } from "@muster/plugin";
import { checkedFamilies, type ListedFamily } from "../services/event-families.ts";
import { STREAM, STREAM_EVENT_FAMILIES, type EventStream } from "../tokens.ts";

const familiesResponse = z.object({
  families: z.array(
    z.object({
      plugin: z.string().describe("The plugin that publishes these events"),
      pattern: z.string().describe("An event name, or a prefix ending in `.*`"),
      description: z.string(),
    }),
  ),
});

/** `GET /api/sse` (the stream) and `GET /api/sse/families` (what its events can be). */
export const streamRoutes = defineRoutes({
  deps: { stream: STREAM, families: STREAM_EVENT_FAMILIES.contributions },
  mount: (router, { stream, families }) => {
    mountStream(router, stream);
    mountFamilies(router, checkedFamilies(families));
  },
});

function mountStream(router: PluginRouter, stream: EventStream): void {
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
      stream.open(koa.res, koa.get("last-event-id") || fromQuery);
      koa.status = 200;
      koa.respond = false;
    },
  );
}

function mountFamilies(router: PluginRouter, families: ListedFamily[]): void {
  router.get(
    "/api/sse/families",
    {
      summary: "The families of bus events the loaded plugins publish to the live stream, with what each reports",
      query: z.strictObject({}),
      response: familiesResponse,
    },
    () => ({ families }),
  );
}
