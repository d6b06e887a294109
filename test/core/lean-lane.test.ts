// The lean lane (core/internal/http/lean-lane.ts) serves a request to a plugin's JSON route
// (GET, POST, PUT, PATCH, DELETE) without Koa's middleware chain; every other request takes
// the chain. The two must answer alike, security
// included. A request target with a `#` in it takes the chain (Koa's URL parser reads it the
// slow way, so the lane leaves it to Koa) and names the same route: so each request below is
// sent both ways, over a raw socket, and the answers compared, status, headers and body.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";
import { assertAlike, rawGet, rawRequest, type RawAnswer } from "../helpers/raw-get.ts";

const t = suite<{ h: TestHost; port: number }>("lean lane");

t.before(async (ctx) => {
  ctx.h = await startTestHost({ config: { owner: "sam" } });
  ctx.port = Number(new URL(ctx.h.url).port);
  for (const title of ["first", "second"]) {
    const created = await ctx.h.json("/api/tasks", { method: "POST", body: { title } });
    assert.is(created.status, 201);
  }
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("a route's answer: health, a list with its X-Total-Count, one task, a page", async ({ port }) => {
  const health = await assertAlike(port, "/api/health");
  assert.is(health.status, 200);
  const list = await assertAlike(port, "/api/tasks");
  assert.is(list.headers.get("x-total-count"), "2");
  assert.is((JSON.parse(list.body) as unknown[]).length, 2);
  const id = (JSON.parse(list.body) as { id: string }[])[0]!.id;
  assert.is((await assertAlike(port, `/api/tasks/${id}`)).status, 200);
  assert.is((await assertAlike(port, "/api/tasks?limit=1&offset=1")).headers.get("x-total-count"), "2");
});

t("health is answered without a Koa context as the chain answers it: its request id, a bad query, an Origin, and counted", async ({ h, port }) => {
  const own = await assertAlike(port, "/api/health", { "X-Request-Id": "probe-12345678" });
  assert.is(own.headers.get("x-request-id"), "probe-12345678", "a valid X-Request-Id is kept");
  const invalid = await assertAlike(port, "/api/health", { "X-Request-Id": "no!" });
  assert.is.not(invalid.headers.get("x-request-id"), "no!");
  const badQuery = await assertAlike(port, "/api/health?verbose=1");
  assert.is(badQuery.status, 400);
  // A cross-origin request gets CORS headers: it takes the way where the full checks run.
  const origin = await assertAlike(port, "/api/health", { Origin: `http://localhost:${port}` });
  assert.is(origin.headers.get("access-control-allow-origin"), `http://localhost:${port}`);
  const count = async () => {
    const metrics = await (await h.request("/metrics")).text();
    return Number(/^muster_http_requests_total\{method="GET",route="\/api\/health",status="200"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
  };
  const before = await count();
  for (let i = 0; i < 3; i++) assert.is((await rawGet(port, "/api/health")).status, 200);
  assert.is(await count(), before + 3, "each plain answer is counted under its route");
});

t("errors: an unknown id, a bad query, an unknown path, a locked vault", async ({ port }) => {
  const missing = await assertAlike(port, "/api/tasks/no-such-task");
  assert.is(missing.status, 404);
  const badQuery = await assertAlike(port, "/api/tasks?limit=lots");
  assert.is(badQuery.status, 400);
  assert.is((JSON.parse(badQuery.body) as { error: { code: string } }).error.code, "VALIDATION_FAILED");
  assert.is((await assertAlike(port, "/api/no-such-thing")).status, 404);
  // No VAULT_KEY in this host: the vault answers 503 with its own code.
  const vault = await assertAlike(port, "/api/vault");
  assert.is(vault.status, 503);
});

t("the host's checks: a foreign Host, a foreign Origin, an allowed Origin", async ({ port }) => {
  const host = await assertAlike(port, "/api/health", { Host: "evil.example" });
  assert.is(host.status, 403);
  assert.is((JSON.parse(host.body) as { error: { code: string } }).error.code, "HOST_NOT_ALLOWED");
  const origin = await assertAlike(port, "/api/tasks", { Origin: "http://evil.example" });
  assert.is(origin.status, 403);
  const own = await assertAlike(port, "/api/tasks", { Origin: `http://127.0.0.1:${port}` });
  assert.is(own.status, 200);
  assert.is(own.headers.get("access-control-allow-origin"), `http://127.0.0.1:${port}`);
});

/** A write sent both ways (as given, then with a `#`: down the Koa chain); the answers compared with ids and times masked. */
async function assertWriteAlike(port: number, method: string, target: string, headers: Record<string, string>, body?: string) {
  const lean = await rawRequest(port, method, target, headers, body);
  const chain = await rawRequest(port, method, `${target}#`, headers, body);
  const label = `${method} ${target}`;
  assert.is(lean.status, chain.status, `${label}: status`);
  const kept = (answer: RawAnswer) => [...answer.headers].filter(([name]) => !PER_WRITE.has(name)).sort(([a], [b]) => a.localeCompare(b));
  assert.equal(kept(lean), kept(chain), `${label}: headers`);
  const masked = (text: string) => text.replace(/"(id|createdAt|updatedAt)":"[^"]*"/g, "");
  assert.is(masked(lean.body), masked(chain.body), `${label}: body`);
  return { lean, chain };
}
const PER_WRITE = new Set(["date", "x-request-id", "connection", "keep-alive", "content-length"]);
const JSON_HEADERS = { "Content-Type": "application/json" };

t("writes take the lane too, and answer as the chain: create, change, refusals of the body, delete with and without the session", async ({ h, port }) => {
  const created = await assertWriteAlike(port, "POST", "/api/tasks", JSON_HEADERS, JSON.stringify({ title: "written both ways", priority: "high" }));
  assert.is(created.lean.status, 201);
  const ids = [created.lean, created.chain].map((answer) => (JSON.parse(answer.body) as { id: string }).id);
  assert.is(new Set(ids).size, 2, "each way created its own task");
  for (const [body, headers, status] of [
    ["{not json", JSON_HEADERS, 400],
    [JSON.stringify({ title: "x", unknown: 1 }), JSON_HEADERS, 400],
    [JSON.stringify({ title: "x" }), { "Content-Type": "text/plain" }, 415],
    [JSON.stringify({ title: "x" }), { ...JSON_HEADERS, Origin: "http://evil.example" }, 403],
  ] as const) {
    assert.is((await assertWriteAlike(port, "POST", "/api/tasks", headers, body)).lean.status, status, body);
  }
  // The same change to each way's task: the answers differ only in the task's id and times.
  const patch = JSON.stringify({ status: "done", notes: "changed both ways" });
  const [lean, chain] = [await rawRequest(port, "PATCH", `/api/tasks/${ids[0]}`, JSON_HEADERS, patch), await rawRequest(port, "PATCH", `/api/tasks/${ids[1]}#`, JSON_HEADERS, patch)];
  assert.equal([lean.status, chain.status], [200, 200]);
  assert.is(lean.body.replace(/"(id|createdAt|updatedAt|completedAt)":"[^"]*"/g, ""), chain.body.replace(/"(id|createdAt|updatedAt|completedAt)":"[^"]*"/g, ""));
  const refused = await assertWriteAlike(port, "DELETE", `/api/tasks/${ids[0]}`, {});
  assert.is(refused.lean.status, 401, "a delete needs the session token, in the lane too");
  const session = { "X-Session-Token": h.token };
  const [gone, goneToo] = [await rawRequest(port, "DELETE", `/api/tasks/${ids[0]}`, session), await rawRequest(port, "DELETE", `/api/tasks/${ids[1]}#`, session)];
  assert.equal([gone.status, goneToo.status, gone.body], [200, 200, goneToo.body]);
  assert.is((await assertWriteAlike(port, "POST", "/api/health", JSON_HEADERS, "{}")).lean.status, 405, "a method the path has no route for");
});

t.run();
