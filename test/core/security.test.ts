import { suite } from "uvu";
import * as assert from "uvu/assert";
import { networkInterfaces } from "node:os";
import { createRateLimiter, definePlugin, z } from "@muster/plugin";
import { withTestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";

const t = suite("security layer");

t("with MUSTER_API_TOKEN every request needs the bearer token", async () => {
  await withTestHost({ config: { apiToken: "test-token-0123456789" } }, async (h) => {
    const none = await h.json("/api/health");
    assert.is(none.status, 401);
    assert.is(none.body.error!.code, "UNAUTHORIZED");
    assert.match(none.headers.get("www-authenticate") ?? "", /Bearer/);
    const wrong = await h.json("/api/health", { headers: { authorization: "Bearer test-token-0123456780" } });
    assert.is(wrong.status, 401);
    const ok = await h.json("/api/health", { headers: { authorization: "Bearer test-token-0123456789" } });
    assert.is(ok.status, 200);
  });
});

t("the server binds loopback only", async () => {
  await withTestHost(async (h) => {
    const port = new URL(h.url).port;
    const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal);
    if (external) {
      const result = await fetch(`http://${external.address}:${port}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status,
        () => "refused",
      );
      assert.is(result, "refused");
    } else {
      assert.is(new URL(h.url).hostname, "127.0.0.1");
    }
  });
});

t("X-Forwarded-For does not change who the server thinks the client is", async () => {
  await withTestHost(async (h) => {
    const res = await h.json("/api/health", { headers: { "x-forwarded-for": "8.8.8.8", "x-forwarded-host": "evil.example" } });
    assert.is(res.status, 200);
  });
});

t("rate limiter: concurrency and per-minute caps, 429 with Retry-After, slots released on success, error and abort", async () => {
  let clock = 0;
  const limiter = createRateLimiter({ feature: "demo", concurrent: 2, perMinute: 4, now: () => clock });
  const gates: (() => void)[] = [];
  const limited = definePlugin({
    id: "limited",
    version: "1.0.0",
    host: "^1.0.0",
    paths: ["/api/limited"],
    routes(router) {
      router.post("/api/limited", { summary: "slow", body: z.strictObject({ mode: z.enum(["hold", "fail", "ok"]) }) }, ({ body, signal }) =>
        limiter.run(async () => {
          if (body.mode === "fail") throw new Error("boom");
          if (body.mode === "hold") await new Promise<void>((resolve) => { gates.push(resolve); signal.addEventListener("abort", () => resolve()); });
          return { ok: true };
        }, { signal }),
      );
    },
  });
  await withTestHost({ extraPlugins: [limited] }, async (h) => {
    const call = (mode: string, signal?: AbortSignal) => h.json("/api/limited", { method: "POST", body: { mode }, signal });
    const first = call("hold");
    const abort = new AbortController();
    const second = call("hold", abort.signal).catch(() => "aborted");
    await waitUntil(() => gates.length >= 2, { label: "both calls holding a slot" });
    const third = await call("ok");
    assert.is(third.status, 429);
    assert.is(third.body.error!.code, "RATE_LIMITED");
    assert.is(third.headers.get("retry-after"), "1");
    abort.abort();
    assert.is(await second, "aborted");
    await waitUntil(() => limiter.state().active === 1, { label: "the aborted call releasing its slot" });
    assert.is(limiter.state().active, 1, "abort released its slot");
    gates[0]!();
    assert.is((await first).status, 200);
    assert.is(limiter.state().active, 0, "success released its slot");
    const failed = await call("fail");
    assert.is(failed.status, 500);
    assert.is(failed.body.error!.code, "INTERNAL_ERROR");
    assert.not.match(JSON.stringify(failed.body), /boom|at |\.ts/);
    assert.is(limiter.state().active, 0, "error released its slot");
    assert.is(limiter.state().startedLastMinute, 3, "refused calls do not count");
    assert.is((await call("ok")).status, 200);
    const overMinute = await call("ok");
    assert.is(overMinute.status, 429);
    assert.is(overMinute.headers.get("retry-after"), "60");
    clock += 60_001;
    assert.is((await call("ok")).status, 200, "the window moves on");
    let ran = false;
    await limiter.run(async () => void (ran = true), { signal: AbortSignal.abort() }).then(
      () => assert.unreachable("an aborted caller must not run"),
      () => undefined,
    );
    assert.is(ran, false);
    assert.is(limiter.state().active, 0, "an already aborted caller takes no slot");
  });
});

t.run();
