// The lean lane (core/internal/http/lean-lane.ts) serves a GET of a JSON route without Koa's
// middleware chain; every other request takes the chain. The two must answer alike, security
// included. A request target with a `#` in it takes the chain (Koa's URL parser reads it the
// slow way, so the lane leaves it to Koa) and names the same route: so each request below is
// sent both ways, over a raw socket, and the answers compared, status, headers and body.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";
import { assertAlike, rawGet } from "../helpers/raw-get.ts";

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

t.run();
