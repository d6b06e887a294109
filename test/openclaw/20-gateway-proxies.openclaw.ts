// GET /api/gateway/sessions and GET /api/gateway/crons against the real gateway. A fresh
// gateway already has system cron jobs and may have sessions of other files, so every
// assertion is about objects this file created itself (reference §4, gotchas).
import { randomUUID } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { bareChat, connectBare } from "../../scripts/openclaw-peer/bare-client.ts";
import { boundedTest, CHAT_TEST_MS } from "./support/bounded.ts";
// The first turns after a gateway start took 106 s at a load of 12-18 on 2 CPUs: the run's own bound stretches with the load, as the test's does.
import { scaled } from "../../core/plugin-api/testing/time-scale.ts";
import { withMuster } from "./support/muster.ts";
import { peer } from "./support/peer.ts";

const test = suite("gateway proxies");

boundedTest(test, "GET /api/gateway/sessions lists a session created on the gateway, as {key, agentId, lastActivity, model}", CHAT_TEST_MS, async () => {
  const { gateway } = peer();
  const client = await connectBare(gateway.url, gateway.token);
  const key = `agent:helper:proxy-${randomUUID().slice(0, 8)}`;
  const before = Date.now();
  try {
    const run = await bareChat(client, "helper", "MARK-proxy-session hello", key, scaled(50_000));
    assert.is(run.state, "final");
  } finally {
    await client.close();
  }
  await withMuster(async (h) => {
    const { status, body } = await h.json("/api/gateway/sessions");
    assert.is(status, 200);
    assert.is(body.ok, true);
    const row = body.sessions.find((s: { key: string }) => s.key === key);
    assert.ok(row, `session ${key} among ${body.sessions.map((s: { key: string }) => s.key).join(", ")}`);
    assert.equal(Object.keys(row).sort(), ["agentId", "key", "lastActivity", "model"]);
    assert.is(row.agentId, "helper");
    assert.is(row.model, "fake-model");
    assert.type(row.lastActivity, "number");
    assert.ok((row.lastActivity ?? 0) >= before - 1_000 && (row.lastActivity ?? 0) <= Date.now() + 1_000, `lastActivity ${row.lastActivity} is epoch ms of this run`);
  });
});

boundedTest(test, "GET /api/gateway/crons returns a job added on the gateway with the normalised fields, beside the system jobs", 30_000, async () => {
  const { gateway } = peer();
  const client = await connectBare(gateway.url, gateway.token);
  const name = `muster-proxy-${randomUUID().slice(0, 8)}`;
  const job = await client.call("cron.add", {
    name,
    agentId: "main",
    schedule: { kind: "cron", expr: "30 6 * * 1-5", tz: "Europe/Berlin" },
    sessionTarget: "isolated",
    wakeMode: "now",
    payload: { kind: "agentTurn", message: "MARK-cron proxy test" },
    delivery: { mode: "none" },
  });
  try {
    await withMuster(async (h) => {
      const { status, body } = await h.json("/api/gateway/crons");
      assert.is(status, 200);
      assert.is(body.ok, true);
      const mine = body.jobs.find((j: { id: string }) => j.id === job.id);
      assert.ok(mine, `job ${job.id} listed`);
      assert.is(mine.name, name);
      assert.is(mine.agentId, "main");
      assert.is(mine.cron, "30 6 * * 1-5");
      assert.is(mine.timezone, "Europe/Berlin");
      assert.is(mine.enabled, true);
      assert.ok(!Number.isNaN(Date.parse(mine.nextRun ?? "")), `nextRun is a date: ${mine.nextRun}`);
      assert.ok(Date.parse(mine.nextRun ?? "") > Date.now(), "nextRun is in the future");
      assert.is(mine.lastRun, null);
      // The gateway's own fields pass through untouched.
      assert.equal(mine.schedule, { kind: "cron", expr: "30 6 * * 1-5", tz: "Europe/Berlin" });
      assert.ok(body.jobs.length > 1, "the gateway's system jobs are listed too");
    });
  } finally {
    await client.call("cron.remove", { id: job.id });
    await client.close();
  }
});

test.run();
