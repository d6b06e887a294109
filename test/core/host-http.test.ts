import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";
import { singleInstanceTest } from "../helpers/team-host.ts";

const t = suite<{ h: TestHost }>("host http");

t.before(async (ctx) => {
  ctx.h = await startTestHost();
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("GET /api/health has the spec shape plus version, uptime and database state", async ({ h }) => {
  const { status, body, headers } = await h.json("/api/health");
  assert.is(status, 200);
  assert.is(body.status, "ok");
  assert.ok(!Number.isNaN(Date.parse(body.timestamp)));
  assert.is(body.version, "1.0.0");
  assert.type(body.uptimeMs, "number");
  assert.is(body.database, "ok");
  assert.match(headers.get("content-security-policy") ?? "", /default-src 'self'/);
  assert.not.match(headers.get("content-security-policy") ?? "", /unsafe-eval/);
  assert.is(headers.get("x-content-type-options"), "nosniff");
  assert.is(headers.get("referrer-policy"), "no-referrer");
  assert.is(headers.get("x-frame-options"), "DENY");
  assert.match(headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
});

t("unknown path is a JSON 404 with the error envelope", async ({ h }) => {
  const { status, body, headers } = await h.json("/api/nope");
  assert.is(status, 404);
  assert.equal(body.ok, false);
  assert.is(body.error!.code, "NOT_FOUND");
  assert.match(headers.get("content-type") ?? "", /application\/json/);
  assert.ok(headers.get("content-security-policy"));
});

t("wrong method on a known path is 405 with Allow", async ({ h }) => {
  const { status, body, headers } = await h.json("/api/health", { method: "POST", body: {} });
  assert.is(status, 405);
  assert.is(body.error!.code, "METHOD_NOT_ALLOWED");
  assert.match(headers.get("allow") ?? "", /GET/);
});

t("no endpoint hands out the session token; it is only in the 0600 file (catalogue A4, issue 8 item 2)", async ({ h }) => {
  for (const headers of [{}, { "x-agent-id": "odin" }, { "x-session-token": h.token }]) {
    const old = await h.json("/api/auth/session", { headers });
    assert.is(old.status, 404, "GET /api/auth/session is gone");
    assert.not.ok(JSON.stringify(old.body).includes(h.token));
  }
  const doc = await h.request("/api/openapi.json").then((r) => r.text());
  assert.not.ok(doc.includes(h.token), "nor does the OpenAPI document");
  assert.not.match(doc, /auth\/session/);
  const { readFileSync, statSync } = await import("node:fs");
  assert.is(readFileSync(`${h.home}/session-token`, "utf8").trim(), h.token);
  assert.match(h.token, /^[0-9a-f]{64}$/);
  assert.is(statSync(`${h.home}/session-token`).mode & 0o777, 0o600);
  const denied = await h.json("/api/tasks/x", { method: "DELETE" });
  assert.is(denied.body.error!.code, "SESSION_TOKEN_REQUIRED");
  assert.not.match(denied.body.error!.message, /auth\/session/, "the error no longer points at the removed endpoint");
});

singleInstanceTest(t, "sends instance A's own origin through the round-robin; each instance allows its own address (a team allows the balancer's with MUSTER_ALLOWED_ORIGINS, docs/team.md)")("foreign Origin on /api is 403 without CORS headers; allowed origin gets them", async ({ h }) => {
  const foreign = await h.json("/api/health", { headers: { origin: "https://evil.example" } });
  assert.is(foreign.status, 403);
  assert.is(foreign.body.error!.code, "ORIGIN_NOT_ALLOWED");
  assert.is(foreign.headers.get("access-control-allow-origin"), null);
  const port = new URL(h.url).port;
  const own = await h.json("/api/health", { headers: { origin: `http://localhost:${port}` } });
  assert.is(own.status, 200);
  assert.is(own.headers.get("access-control-allow-origin"), `http://localhost:${port}`);
  const nullOrigin = await h.json("/api/health", { headers: { origin: "null" } });
  assert.is(nullOrigin.status, 403);
});

t("routing is case-sensitive and the origin check covers every path (issue 8 item 3)", async ({ h }) => {
  const before = (await h.json("/api/tasks")).body.length;
  const foreign = { origin: "https://evil.example" };
  for (const [method, path] of [["POST", "/API/TASKS"], ["POST", "/Api/tasks"], ["POST", "/API/BOARD/IMPORT?project=demo"], ["GET", "/API/HEALTH"], ["GET", "/login?code=x"], ["GET", "/"], ["GET", "/favicon.ico"], ["OPTIONS", "/anything"]] as const) {
    const res = await h.json(path, { method, headers: foreign, ...(method === "POST" ? { body: { title: "cross-site" } } : {}) });
    assert.is(res.status, 403, `${method} ${path} from a foreign origin`);
    assert.is(res.body.error!.code, "ORIGIN_NOT_ALLOWED");
    assert.is(res.headers.get("access-control-allow-origin"), null);
  }
  for (const path of ["/API/TASKS", "/Api/tasks", "/api/TASKS"]) {
    const res = await h.json(path, { method: "POST", body: { title: "upper" } });
    assert.is(res.status, 404, `POST ${path} without Origin is not routed`);
    assert.is(res.body.error!.code, "NOT_FOUND");
  }
  assert.is((await h.json("/API/HEALTH")).status, 404);
  assert.is((await h.json("/api/tasks")).body.length, before, "no task was created");
});

t("foreign Host header (DNS rebinding) is refused", async ({ h }) => {
  const { request } = await import("node:http");
  const port = Number(new URL(h.url).port);
  const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/api/health", headers: { host: "evil.example" } }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
  assert.is(result.status, 403);
  assert.is(JSON.parse(result.body).error.code, "HOST_NOT_ALLOWED");
  assert.not.match(result.body, /"status":"ok"/);
});

t("a Host header that only starts like a loopback one is refused: 127.0.0.1.evil, [::1].evil, userinfo-shaped, a non-numeric port", async ({ h }) => {
  const { request } = await import("node:http");
  const port = Number(new URL(h.url).port);
  const statusFor = (host: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/api/health", headers: { host } }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end();
    });
  for (const host of ["127.0.0.1.evil", `127.0.0.1.evil:${port}`, "[::1].evil.example", `[::1]x:${port}`, "127.0.0.1:80@evil.example", "localhost:evil", "[::1", "[::ffff:127.0.0.1]"]) {
    assert.is(await statusFor(host), 403, host);
  }
  for (const host of ["127.0.0.1", `127.0.0.1:${port}`, `LOCALHOST:${port}`, "[::1]", `[::1]:${port}`]) {
    assert.is(await statusFor(host), 200, host);
  }
});

t("OpenAPI document lists the host routes", async ({ h }) => {
  const { status, body } = await h.json("/api/openapi.json");
  assert.is(status, 200);
  assert.is(body.openapi, "3.1.0");
  assert.ok(body.paths["/api/health"]?.get);
  assert.ok(body.paths["/api/plugins"]?.get);
});

t("unknown query parameters are refused", async ({ h }) => {
  const { status, body } = await h.json("/api/health?x=1");
  assert.is(status, 400);
  assert.is(body.error!.code, "VALIDATION_FAILED");
});

t.run();
