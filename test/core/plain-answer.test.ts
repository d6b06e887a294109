// A host answer written without a Koa context (`RouteTable.answerPlainly`, lean-lane.ts) that
// fails is answered as the Koa chain's error boundary answers: the 500 envelope, with the
// request id and the security headers, counted under its route; the server goes on serving.
// Built from the real parts (createApp, a route table, a listening node:http server).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { z } from "zod";
import type { PlainAnswer } from "../../core/internal/http/plugin-router.ts";
import { serveRouteTable, testRouteTable, type ServedRoutes } from "../helpers/route-table-server.ts";

const t = suite<ServedRoutes>("plain answers");

const ANSWERS: Record<string, PlainAnswer> = {
  "/api/throws": () => {
    throw new Error("the host state could not be read");
  },
  "/api/rejects": () => Promise.reject(new Error("the host state could not be read")),
  // JSON.stringify cannot serialise a BigInt: the failure comes after the answer was computed.
  "/api/unserialisable": () => ({ status: 200, body: { count: 10n } }),
  "/api/fine": () => ({ status: 200, body: { fine: true } }),
};

t.before(async (ctx) => {
  const routes = testRouteTable();
  const router = routes.forPlugin("host", ["/api"]);
  for (const path of Object.keys(ANSWERS)) {
    router.get(path, { summary: path, query: z.strictObject({}), response: z.unknown() }, () => ({ fromTheRoute: true }));
    routes.answerPlainly(path, ANSWERS[path]!);
  }
  Object.assign(ctx, await serveRouteTable(routes));
});
t.after(async (ctx) => {
  await ctx.close();
});

t("an answer that throws, rejects or cannot be serialised is the 500 envelope, with the envelope's headers", async ({ base, metrics }) => {
  for (const path of ["/api/throws", "/api/rejects", "/api/unserialisable"]) {
    const res = await fetch(`${base}${path}`);
    assert.is(res.status, 500, path);
    const body = (await res.json()) as { ok: boolean; error: { code: string } };
    assert.equal([body.ok, body.error.code], [false, "INTERNAL_ERROR"], path);
    assert.match(res.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/, path);
    assert.is(res.headers.get("x-content-type-options"), "nosniff", path);
    assert.ok(res.headers.get("content-security-policy"), path);
    const counted = metrics.snapshot().requests.find((r) => r.route === path);
    assert.equal(counted && { status: counted.status, count: counted.count }, { status: 500, count: 1 }, `${path} counted`);
  }
});

t("the server goes on: a plain answer, and the route's own answer when the request takes the Koa chain", async ({ base }) => {
  const plain = await fetch(`${base}/api/fine`, { headers: { "X-Request-Id": "request-0001" } });
  assert.is(plain.status, 200);
  assert.equal(await plain.json(), { fine: true });
  assert.is(plain.headers.get("x-request-id"), "request-0001");
  assert.is(plain.headers.get("content-type"), "application/json; charset=utf-8");
  // With an Origin the full access checks run, in the Koa chain: the route answers itself.
  const chain = await fetch(`${base}/api/fine`, { headers: { Origin: "http://evil.example" } });
  assert.is(chain.status, 403);
});

t("only the host can answer plainly, and only where it has a GET route", () => {
  const routes = testRouteTable();
  assert.throws(() => routes.answerPlainly("/api/nothing-here", () => ({ status: 200, body: {} })), /no GET route at \/api\/nothing-here/);
});

t.run();
