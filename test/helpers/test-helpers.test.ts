// The test helpers keep their promises: withTestHost cleans up even after a failure, and
// every wait is bounded and names what it waited for.
import { existsSync } from "node:fs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { onPostgres, removeHome, startTestHost, withTestHost, type TestHost } from "./start-test-host.ts";
import { workPlugin } from "../../plugins/work/index.ts";
import { metricsPlugin } from "../../plugins/metrics/index.ts";
import { inTeam } from "./team-host.ts";
import { eventRecorder, waitUntil } from "./wait.ts";

const t = suite("test helpers");

t("withTestHost stops the host and removes its home when the body throws, and after a restart", async () => {
  let seen: TestHost | undefined;
  const failure = await withTestHost({ plugins: [] }, async (h) => {
    seen = h;
    throw new Error("body failed");
  }).catch((error: Error) => error.message);
  assert.is(failure, "body failed");
  assert.not.ok(existsSync(seen!.home), "home removed");
  assert.ok(await fetch(`${seen!.url}/api/health`).then(() => false, () => true), "nothing listens");

  let restarted: TestHost | undefined;
  const answer = await withTestHost({ plugins: [] }, async (h) => {
    restarted = await h.restart();
    return (await restarted.json("/api/health")).status;
  });
  assert.is(answer, 200);
  assert.ok(await fetch(`${restarted!.url}/api/health`).then(() => false, () => true), "the restarted host is stopped too");
  assert.not.ok(existsSync(restarted!.home));
});

t("MUSTER_TEST_POSTGRES=1: each host on its own PostgreSQL database, kept by a restart and by a host on the same home; without it, SQLite", async () => {
  const first = await startTestHost({ plugins: [workPlugin] });
  const other = await startTestHost({ plugins: [workPlugin] });
  try {
    const url = first.host.config.databaseUrl;
    if (!onPostgres) return assert.is(url, null);
    assert.ok(url?.startsWith("postgres://"), String(url));
    assert.is.not(other.host.config.databaseUrl, url, "a fresh database per host");
    assert.is((await first.json("/api/tasks", { method: "POST", body: { title: "kept" } })).status, 201);
    const restarted = await first.restart();
    assert.is(restarted.host.config.databaseUrl, url);
    await restarted.stop();
    const again = await startTestHost({ plugins: [workPlugin], home: first.home });
    assert.is(again.host.config.databaseUrl, url, "the home's database");
    assert.equal((await again.client.getTasks()).map((task) => task.title), ["kept"]);
    await again.stop();
  } finally {
    await Promise.allSettled([first.stop(), other.stop()]);
    removeHome(first.home);
    removeHome(other.home);
  }
});

t("MUSTER_TEST_TEAM=1: each host is two instances on one database and workspace, one session token, requests alternating; without it, one", async () => {
  await withTestHost({ plugins: [workPlugin, metricsPlugin] }, async (h) => {
    const b = h.instanceB;
    if (!inTeam) return assert.is(b, undefined);
    assert.ok(b && b.url !== h.url && b.home !== h.home, "B answers on its own address, from its own home");
    assert.is(b.host.config.databaseUrl, h.host.config.databaseUrl, "one database");
    assert.is(b.host.config.workspaceDir, h.host.config.workspaceDir, "one workspace");
    assert.is(b.host.sessionToken, h.token, "the deployment's session token");
    for (let i = 0; i < 4; i++) assert.is((await h.request("/api/health")).status, 200);
    for (let i = 0; i < 2; i++) await h.client.getTasks();
    const served = async (url: string, route: string) => {
      const text = await (await fetch(`${url}/metrics`)).text();
      return [...text.matchAll(new RegExp(`^muster_http_requests_total\\{[^}]*route="${route}"[^}]*\\} (\\d+)$`, "gm"))].reduce((sum, m) => sum + Number(m[1]), 0);
    };
    assert.equal([await served(h.url, "/api/health"), await served(b.url, "/api/health")], [2, 2], "h.request: round-robin");
    assert.equal([await served(h.url, "/api/tasks"), await served(b.url, "/api/tasks")], [1, 1], "h.client: round-robin");
    const restarted = await h.restart();
    assert.is(restarted.instanceB?.home, b.home, "a restart keeps B's home");
    assert.ok(await fetch(`${b.url}/api/health`).then(() => false, () => true), "the old B is stopped");
    assert.is((await restarted.json("/api/health")).status, 200);
  });
});

t("waitUntil returns the first truthy answer and times out naming what it awaited", async () => {
  let calls = 0;
  assert.is(await waitUntil(() => (++calls >= 3 ? "ready" : undefined), { intervalMs: 1 }), "ready");
  const error = await waitUntil(() => false, { timeoutMs: 30, label: "the moon" }).catch((e: Error) => e.message);
  assert.match(String(error), /timed out after \d+ ms waiting for the moon/);
});

t("eventRecorder.waitFor resolves on a bus event, past or future, and times out otherwise", async () => {
  const recorder = eventRecorder("work.*");
  await withTestHost({ extraPlugins: [recorder.plugin] }, async (h) => {
    const future = recorder.waitFor("work.task.created", (e) => (e.payload as { title: string }).title === "watched");
    await h.json("/api/tasks", { method: "POST", body: { title: "watched" } });
    assert.is(((await future).payload as { title: string }).title, "watched");
    assert.ok(await recorder.waitFor("work.task.created"), "an event already recorded resolves at once");
    const missing = await recorder.waitFor("work.task.deleted", undefined, 30).catch((e: Error) => e.message);
    assert.match(String(missing), /timed out after \d+ ms waiting for event work\.task\.deleted/);
  });
});

t.run();
