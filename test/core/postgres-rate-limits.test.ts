// Team mode (issue 25): the crew's limits hold across instances, not per process
// (`hostTokens.rateLimits`, what chat, council and dispatch take their slots from). Two real
// hosts on one throwaway PostgreSQL database take slots through a probe plugin's routes.
import * as assert from "uvu/assert";
import { definePlugin, defineRoutes, hostTokens, z } from "@muster/plugin";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";

const { t, test, database } = postgresSuite("rate limits across instances on PostgreSQL");

/** Takes a slot of a test feature (3 at once, 6 a minute) and holds it until released by id. */
const slotsProbe = definePlugin({
  id: "rl-probe",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/rl-probe"],
  routes: defineRoutes({
    deps: { rateLimits: hostTokens.rateLimits },
    mount(router, { rateLimits }) {
      const limiter = rateLimits.create({ feature: "probe", concurrent: 3, perMinute: 6 });
      const held = new Map<string, () => Promise<void>>();
      router.post("/api/rl-probe/take", { summary: "take a slot", body: z.object({ id: z.string() }) }, async ({ body }) => {
        held.set(body.id, await limiter.acquire());
        return { ok: true };
      });
      router.post("/api/rl-probe/release", { summary: "release a slot", body: z.object({ id: z.string() }) }, async ({ body }) => {
        await held.get(body.id)?.();
        return { ok: true, released: held.delete(body.id) };
      });
    },
  }),
});

const take = (h: TestHost, id: string) => h.json<{ error?: { code: string; details?: { retryAfterSeconds: number } } }>("/api/rl-probe/take", { method: "POST", body: { id } });

test("3 at once and 6 a minute across two instances: the 4th concurrent and the 7th in a minute are refused 429 with Retry-After; a released slot is free on the other", async () => {
  const url = await database();
  const a = await startTestHost({ plugins: [slotsProbe], env: { DATABASE_URL: url } });
  const b = await startTestHost({ plugins: [slotsProbe], env: { DATABASE_URL: url } });
  try {
    const first = await Promise.all([take(a, "a1"), take(b, "b1"), take(a, "a2"), take(b, "b2")]);
    assert.equal(first.map((r) => r.status).sort(), [200, 200, 200, 429], "three of four concurrent slots across both");
    const refused = first.find((r) => r.status === 429)!;
    assert.is(refused.body.error?.code, "RATE_LIMITED");
    assert.is(refused.headers.get("retry-after"), "1");
    // A slot released on one instance is free on the other.
    const holder = first.findIndex((r) => r.status === 200);
    const [host, id] = [[a, "a1"], [b, "b1"], [a, "a2"], [b, "b2"]][holder] as [TestHost, string];
    assert.is((await host.json("/api/rl-probe/release", { method: "POST", body: { id } })).status, 200);
    assert.is((await take(b, "b3")).status, 200);
    // 4 (or 5) started so far; release all and start until the minute's six are used.
    for (const [h, ids] of [[a, ["a1", "a2"]], [b, ["b1", "b2", "b3"]]] as [TestHost, string[]][]) for (const slot of ids) await h.json("/api/rl-probe/release", { method: "POST", body: { id: slot } });
    let started = first.filter((r) => r.status === 200).length + 1;
    let n = 0;
    while (started < 6) {
      const h = n++ % 2 ? a : b;
      const r = await take(h, `m${n}`);
      assert.is(r.status, 200, JSON.stringify(r.body));
      await h.json("/api/rl-probe/release", { method: "POST", body: { id: `m${n}` } });
      started++;
    }
    const seventh = await take(a, "late");
    assert.is(seventh.status, 429);
    assert.is(seventh.body.error?.code, "RATE_LIMITED");
    assert.ok(Number(seventh.headers.get("retry-after")) >= 1 && Number(seventh.headers.get("retry-after")) <= 60, String(seventh.headers.get("retry-after")));
  } finally {
    for (const h of [a, b]) {
      await h.stop();
      removeHome(h.home);
    }
  }
});

test("slots held by an instance that is gone stop counting", async () => {
  const url = await database();
  const a = await startTestHost({ plugins: [slotsProbe], env: { DATABASE_URL: url } });
  const b = await startTestHost({ plugins: [slotsProbe], env: { DATABASE_URL: url } });
  try {
    for (const id of ["a1", "a2", "a3"]) assert.is((await take(a, id)).status, 200);
    assert.is((await take(b, "b1")).status, 429, "A holds all three");
    await a.stop(); // held, never released: its instance leaves the registry
    assert.is((await take(b, "b2")).status, 200);
  } finally {
    await b.stop();
    for (const h of [a, b]) removeHome(h.home);
  }
});

t.run();
