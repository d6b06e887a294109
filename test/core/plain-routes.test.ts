// A plugin's GET route answered without a Koa context (lean-lane.ts's `answerRoute`,
// `RouteTable.plainRouteOf`) answers as the same route down the Koa chain does: each request
// is sent both ways (a `#` in the target sends it down the chain) and the two answers
// compared, status, headers and body. Covered: a header set with `setHeader`, a handler that
// reads `koa` (the context is made then), an answer that is not JSON, a header that goes with
// the body, errors after a header was set, a bad header, path parameters, a repeated query
// parameter, X-Agent-Id, the handler's abort signal, and the count under the route's template.
// Built from the real parts (createApp, a route table, a listening node:http server).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { connect } from "node:net";
import { z } from "zod";
import { hostErrors } from "../../core/plugin-api/errors.ts";
import { assertAlike, rawGet } from "../helpers/raw-get.ts";
import { waitUntil } from "../helpers/wait.ts";
import { serveRouteTable, testRouteTable, type ServedRoutes } from "../helpers/route-table-server.ts";

const t = suite<ServedRoutes & { reads: string[] }>("plain routes");

t.before(async (ctx) => {
  ctx.reads = [];
  const routes = testRouteTable();
  const router = routes.forPlugin("things", ["/api/things"]);
  router.get("/api/things", { summary: "a list with its count", query: z.strictObject({ tag: z.union([z.string(), z.array(z.string())]).optional() }) }, ({ query, agentId, setHeader }) => {
    setHeader("X-Total-Count", "2");
    setHeader("x-total-count", "3"); // the later value of a name wins, as res.setHeader's
    return { query, agentId };
  });
  router.get("/api/things/:id", { summary: "one thing", params: z.strictObject({ id: z.string().regex(/^t\d+$/) }) }, ({ params }) => ({ id: params.id }));
  router.get("/api/things/status/accepted", { summary: "a handler setting its status through koa" }, ({ koa, setHeader }) => {
    setHeader("X-Before", "set before koa was read");
    koa.status = 202;
    koa.set("X-Through-Koa", "yes");
    setHeader("X-After", "set after koa was read");
    ctx.reads.push("accepted");
    return { accepted: true };
  });
  router.get("/api/things/text/plain", { summary: "an answer that is not JSON" }, () => "just text");
  router.get("/api/things/nothing/at-all", { summary: "no answer: ok" }, () => undefined);
  router.get("/api/things/typed/problem", { summary: "a header that goes with the body" }, ({ setHeader }) => {
    setHeader("Content-Type", "application/problem+json");
    return { typed: true };
  });
  router.get("/api/things/fail/coded", { summary: "a coded error after a header" }, ({ setHeader }) => {
    setHeader("X-Total-Count", "0");
    throw hostErrors.NOT_FOUND({ method: "GET", path: "/api/things/fail/coded" });
  });
  router.get("/api/things/fail/thrown", { summary: "an unexpected error" }, async () => {
    throw new Error("the store could not be read");
  });
  router.get("/api/things/fail/bad-header", { summary: "a header name that is not a token" }, ({ setHeader }) => {
    setHeader("Bad Name", "x");
    return { unreachable: true };
  });
  router.get("/api/things/fail/unserialisable", { summary: "a BigInt" }, () => ({ count: 10n }));
  // Read at once: aborted when the client leaves. Read late, after the client left: aborted already.
  router.get("/api/things/wait/now", { summary: "waits for the client to leave" }, ({ signal }) =>
    new Promise((resolve) => signal.addEventListener("abort", () => resolve(ctx.reads.push(`now: ${(signal.reason as Error).message}`)))),
  );
  // Waits for the server to see its client go (not a guessed time: on a loaded machine a
  // timer may fire in the same turn as the socket's close, before it).
  let closedSockets = 0;
  router.get("/api/things/wait/late", { summary: "reads its signal after the client left" }, async (input) => {
    const closedBefore = closedSockets;
    await waitUntil(() => closedSockets > closedBefore, { timeoutMs: 5_000, label: "the server seeing the client leave" });
    ctx.reads.push(`late: ${input.signal.aborted}`);
    return {};
  });
  Object.assign(ctx, await serveRouteTable(routes));
  ctx.server.on("connection", (socket) => socket.once("close", () => closedSockets++));
});
t.after(async (ctx) => {
  await ctx.close();
});

const bodyOf = (answer: { body: string }) => JSON.parse(answer.body) as Record<string, any>;

t("a list: its header set with setHeader, a repeated query parameter as an array, the agent's id", async ({ port }) => {
  const list = await assertAlike(port, "/api/things?tag=a&tag=b", { "X-Agent-Id": "agent-7" });
  assert.is(list.status, 200);
  assert.is(list.headers.get("x-total-count"), "3");
  assert.is(list.headers.get("content-type"), "application/json; charset=utf-8");
  assert.is(list.headers.get("x-content-type-options"), "nosniff", "the security headers");
  assert.equal(bodyOf(list), { query: { tag: ["a", "b"] }, agentId: "agent-7" });
  assert.equal(bodyOf(await assertAlike(port, "/api/things?tag=a")).query, { tag: "a" });
  assert.equal(bodyOf(await assertAlike(port, "/api/things")).query, {});
});

t("refusals: a bad path parameter, an unknown query parameter, a bad X-Agent-Id", async ({ port }) => {
  assert.equal(bodyOf(await assertAlike(port, "/api/things/t12")), { id: "t12" });
  for (const [target, headers] of [["/api/things/x12", {}], ["/api/things?nope=1", {}], ["/api/things?__proto__=1", {}], ["/api/things", { "X-Agent-Id": "not an id!" }]] as const) {
    const refused = await assertAlike(port, target, headers);
    assert.is(refused.status, 400, target);
    assert.is(bodyOf(refused).error.code, "VALIDATION_FAILED", target);
  }
});

t("a handler that reads koa gets the context: its status, Koa's headers and setHeader's before and after", async ({ port, reads }) => {
  const answer = await assertAlike(port, "/api/things/status/accepted");
  assert.is(answer.status, 202);
  assert.equal(bodyOf(answer), { accepted: true });
  assert.equal([answer.headers.get("x-before"), answer.headers.get("x-through-koa"), answer.headers.get("x-after")], ["set before koa was read", "yes", "set after koa was read"]);
  assert.is(reads.length, 2, "the handler ran once per request");
});

t("answers other than JSON, none, and a Content-Type of the handler's own go out as Koa sends them", async ({ port }) => {
  const text = await assertAlike(port, "/api/things/text/plain");
  assert.equal([text.status, text.body, text.headers.get("content-type")], [200, "just text", "text/plain; charset=utf-8"]);
  const nothing = await assertAlike(port, "/api/things/nothing/at-all");
  assert.equal(bodyOf(nothing), { ok: true });
  const typed = await assertAlike(port, "/api/things/typed/problem");
  assert.is(typed.headers.get("content-type"), "application/problem+json");
  assert.equal(bodyOf(typed), { typed: true });
});

t("errors: the envelope, with a header set before the error; 500 for a throw, a bad header and a BigInt", async ({ port }) => {
  const coded = await assertAlike(port, "/api/things/fail/coded");
  assert.equal([coded.status, bodyOf(coded).error.code, coded.headers.get("x-total-count")], [404, "NOT_FOUND", "0"]);
  for (const target of ["/api/things/fail/thrown", "/api/things/fail/bad-header", "/api/things/fail/unserialisable"]) {
    const failed = await assertAlike(port, target);
    assert.equal([failed.status, bodyOf(failed).error.code], [500, "INTERNAL_ERROR"], target);
  }
  assert.is((await rawGet(port, "/api/things")).status, 200, "the server goes on");
});

t("the handler's signal: aborted when the client leaves, and already aborted when read after it left", async ({ port, reads }) => {
  for (const target of ["/api/things/wait/now", "/api/things/wait/now#", "/api/things/wait/late", "/api/things/wait/late#"]) {
    const seen = reads.length;
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => {});
    socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await waitUntil(() => reads.length > seen || null, { timeoutMs: 5_000, intervalMs: 20, label: target });
    assert.is(reads.at(-1), target.includes("now") ? "now: client disconnected" : "late: true", target);
  }
});

t("each answer is counted under its route's template, its status as answered", async ({ port, metrics }) => {
  const count = (route: string, status: number) => metrics.snapshot().requests.find((r) => r.route === route && r.status === status)?.count ?? 0;
  const before = [count("/api/things/:id", 200), count("/api/things/fail/coded", 404), count("/api/things/status/accepted", 202)];
  await rawGet(port, "/api/things/t1");
  await rawGet(port, "/api/things/t2");
  await rawGet(port, "/api/things/fail/coded");
  await rawGet(port, "/api/things/status/accepted");
  assert.equal([count("/api/things/:id", 200), count("/api/things/fail/coded", 404), count("/api/things/status/accepted", 202)], [before[0]! + 2, before[1]! + 1, before[2]! + 1]);
});

t.run();
