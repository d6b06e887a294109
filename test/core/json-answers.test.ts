// How a route's answer reaches the wire (core/internal/http/json-body.ts): the host serialises
// it to JSON itself, with the type and length Koa would set, and a value JSON cannot hold is a
// coded 500 in the error envelope (it used to fail inside Koa's respond(), after the error
// boundary, as a plain-text "Internal Server Error").
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { definePlugin, defineRoutes, z } from "@muster/plugin";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";

const answers = definePlugin({
  id: "answers",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/answers"],
  routes: defineRoutes({
    deps: {},
    mount: (router) => {
      const spec = { query: z.strictObject({}), tags: ["answers"] };
      router.get("/api/answers/list", { ...spec, summary: "An array" }, () => [{ name: "é" }, { name: "b" }] as unknown as Record<string, unknown>);
      router.get("/api/answers/huge", { ...spec, summary: "A number JSON cannot hold" }, () => ({ count: 10n }) as unknown as Record<string, unknown>);
      router.get("/api/answers/bare-huge", { ...spec, summary: "A bare number JSON cannot hold" }, () => 10n as unknown as Record<string, unknown>);
      router.get("/api/answers/typed", { ...spec, summary: "Its own JSON type" }, ({ koa }) => {
        koa.type = "application/problem+json";
        return { title: "kept" };
      });
    },
  }),
});

const t = suite<{ h: TestHost }>("JSON answers");

t.before(async (ctx) => {
  ctx.h = await startTestHost({ extraPlugins: [answers] });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("an answer is JSON with Koa's type and its byte length; an array stays an array", async ({ h }) => {
  const res = await h.request("/api/answers/list");
  const text = await res.text();
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "application/json; charset=utf-8");
  assert.is(res.headers.get("content-length"), String(Buffer.byteLength(text)));
  assert.equal(JSON.parse(text), [{ name: "é" }, { name: "b" }]);
});

t("a route's own JSON type is kept", async ({ h }) => {
  const res = await h.request("/api/answers/typed");
  assert.is(res.headers.get("content-type"), "application/problem+json");
  assert.equal(await res.json(), { title: "kept" });
});

t("a value JSON cannot hold is a 500 INTERNAL_ERROR envelope, and the server goes on", async ({ h }) => {
  const { status, body, headers } = await h.json<{ ok: boolean; error: { code: string } }>("/api/answers/huge");
  assert.is(status, 500);
  assert.is(headers.get("content-type"), "application/json; charset=utf-8");
  assert.is(body.ok, false);
  assert.is(body.error.code, "INTERNAL_ERROR");
  assert.is((await h.json("/api/health")).status, 200);
});

t("a bare value JSON cannot hold fails that request only (Koa's own 500), and the server goes on", async ({ h }) => {
  const res = await h.request("/api/answers/bare-huge");
  assert.is(res.status, 500);
  await res.text();
  assert.is((await h.json("/api/health")).status, 200);
});

t("HEAD answers a GET route's length with no body; errors keep their JSON envelope", async ({ h }) => {
  const get = await h.request("/api/answers/list");
  const head = await h.request("/api/answers/list", { method: "HEAD" });
  assert.is(head.status, 200);
  assert.is(head.headers.get("content-length"), get.headers.get("content-length"));
  assert.is(await head.text(), "");
  const missing = await h.request("/api/answers/none");
  assert.is(missing.status, 404);
  assert.is(missing.headers.get("content-type"), "application/json; charset=utf-8");
  assert.is(((await missing.json()) as { error: { code: string } }).error.code, "NOT_FOUND");
});

t.run();
