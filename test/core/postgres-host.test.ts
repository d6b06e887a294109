// Team mode's first slice (issue 25): a host started with DATABASE_URL on a real, throwaway
// PostgreSQL answers /api/health and serves a plugin that reads and writes only through the
// store kit (settings: key-value settings and autopilot goals and runs). A bad or unreachable
// URL stops start-up with a coded error, never a hang. Skipped, with the reason printed, where
// PostgreSQL's server binaries are missing.
import * as assert from "uvu/assert";
import { settingsPlugin } from "../../plugins/settings/index.ts";
import { activitiesPlugin } from "../../plugins/activities/index.ts";
import { approvalsPlugin } from "../../plugins/approvals/index.ts";
import { notificationsPlugin } from "../../plugins/notifications/index.ts";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeHome, startTestHost, withTestHost } from "../helpers/start-test-host.ts";
import { envFor, main, report } from "./doctor-run.ts";
import { spawnSync } from "node:child_process";
import { freePort, startPostgres, postgresSuite } from "../helpers/postgres-cluster.ts";

const { t, test, database } = postgresSuite("host on PostgreSQL (DATABASE_URL)");

test("answers /api/health with the database ok, and creates and lists through a store-kit-only plugin", async () => {
  const url = await database();
  await withTestHost({ plugins: [settingsPlugin], env: { DATABASE_URL: url } }, async (h) => {
    const health = await h.json("/api/health");
    assert.is(health.status, 200);
    assert.is(health.body.status, "ok");
    assert.is(health.body.database, "ok");

    const first = await h.json("/api/autopilot/goals", { method: "POST", body: { title: "Ship team mode", priority: "critical" } });
    assert.is(first.status, 201, JSON.stringify(first.body));
    const second = await h.json("/api/autopilot/goals", { method: "POST", body: { title: "Write docs/team.md" } });
    assert.is(second.status, 201, JSON.stringify(second.body));
    const updated = await h.json("/api/autopilot/goals", { method: "POST", body: { id: first.body.goal.id, title: "Ship team mode", status: "paused" } });
    assert.is(updated.status, 200, JSON.stringify(updated.body));
    assert.is(updated.body.goal.status, "paused");

    const goals = await h.json("/api/autopilot/goals");
    assert.is(goals.status, 200);
    assert.equal(goals.body.goals.map((g: { title: string }) => g.title).sort(), ["Ship team mode", "Write docs/team.md"]);

    const put = await h.json("/api/settings/theme", { method: "PUT", body: { value: "dark" } });
    assert.is(put.status, 200, JSON.stringify(put.body));
    const settings = await h.json("/api/settings");
    assert.is(settings.body.settings.theme, "dark");
  });
});

test("the data lives in PostgreSQL: a second host with its own MUSTER_HOME on the same DATABASE_URL sees it, and no SQLite file is made", async () => {
  const url = await database();
  const first = await startTestHost({ plugins: [settingsPlugin], env: { DATABASE_URL: url } });
  try {
    assert.is((await first.json("/api/autopilot/goals", { method: "POST", body: { title: "Shared by both homes" } })).status, 201);
    assert.not.ok(existsSync(join(first.home, "muster.db")), "a SQLite file was created beside PostgreSQL");
  } finally {
    await first.stop();
  }
  // Its migrations are already applied: the second start finds them recorded and applies none.
  await withTestHost({ plugins: [settingsPlugin], env: { DATABASE_URL: url } }, async (second) => {
    assert.is.not(second.home, first.home);
    const goals = await second.json("/api/autopilot/goals");
    assert.equal(goals.body.goals.map((g: { title: string }) => g.title), ["Shared by both homes"]);
  });
  removeHome(first.home);
});

test("two instances started at once on a fresh database both start: each migration is applied once, the other waits and skips it", async () => {
  const url = await database();
  const plugins = [activitiesPlugin, notificationsPlugin, approvalsPlugin, settingsPlugin];
  const starts = await Promise.allSettled([0, 1, 2].map(() => startTestHost({ plugins, env: { DATABASE_URL: url } })));
  const hosts = starts.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  try {
    const failures = starts.flatMap((s) => (s.status === "rejected" ? [(s.reason as Error).message] : []));
    assert.equal(failures, [], "an instance refused to start");
    for (const h of hosts) assert.is((await h.json("/api/health")).body.database, "ok");
    // Each instance sees what another wrote: one database, migrated once.
    assert.is((await hosts[0]!.json("/api/autopilot/goals", { method: "POST", body: { title: "Started together" } })).status, 201);
    assert.equal((await hosts[2]!.json("/api/autopilot/goals")).body.goals.map((g: { title: string }) => g.title), ["Started together"]);
  } finally {
    for (const h of hosts) {
      await h.stop();
      removeHome(h.home);
    }
  }
});

test("an unreachable database stops start-up with DATABASE_UNREACHABLE, the password not shown", async () => {
  // A port nothing listens on: refused at once, well inside the bounded connect.
  const url = `postgres://muster:secret-password@127.0.0.1:${await freePort()}/muster`;
  const error = await startTestHost({ plugins: [settingsPlugin], env: { DATABASE_URL: url } }).then(
    async (h) => {
      await h.stop();
      return null;
    },
    (e: Error & { code?: string }) => e,
  );
  assert.ok(error, "the host started");
  assert.is(error.code, "DATABASE_UNREACHABLE", error.message);
  assert.match(error.message, /DATABASE_URL/);
  assert.not.match(error.message, /secret-password/);
});

test("muster doctor reports the database link: answering with its migrations, or failing with the fix", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-doctor-pg-"));
  try {
    const url = await database();
    const fresh = await report(envFor(null, home, { DATABASE_URL: url, GATEWAY_URL: "off" }));
    const link = fresh.checks.find((c) => c.id === "database")!;
    assert.is(link.status, "ok", link.detail);
    assert.ok(/PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/muster_\w+ answers, 0 migrations applied/.test(link.detail), link.detail);
    const down = await report(envFor(null, home, { DATABASE_URL: `postgres://muster:secret-password@127.0.0.1:${await freePort()}/muster`, GATEWAY_URL: "off" }));
    const failed = down.checks.find((c) => c.id === "database")!;
    assert.is(failed.status, "fail");
    assert.match(failed.detail, /DATABASE_URL/);
    assert.not.match(failed.detail, /secret-password/);
    assert.match(failed.fix ?? "", /DATABASE_URL/);
  } finally {
    removeHome(home);
  }
});

test("muster migrate with DATABASE_URL applies every built-in plugin's migrations to PostgreSQL once; doctor then counts them, none pending", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-migrate-pg-"));
  try {
    const url = await database();
    const env = { ...process.env, MUSTER_HOME: home, DATABASE_URL: url };
    const first = spawnSync(process.execPath, [main, "migrate"], { env, encoding: "utf8", timeout: 60_000 });
    assert.is(first.status, 0, first.stderr);
    const ids = first.stdout.trim().split("\n");
    assert.ok(ids.includes("vault:001-vault") && ids.includes("boards:001-boards"), first.stdout);
    assert.match(first.stderr, new RegExp(`Applied ${ids.length} migration\\(s\\) to PostgreSQL`));
    const again = spawnSync(process.execPath, [main, "migrate"], { env, encoding: "utf8", timeout: 60_000 });
    assert.is(again.status, 0, again.stderr);
    assert.is(again.stdout, "");
    const link = (await report(envFor(null, home, { DATABASE_URL: url, GATEWAY_URL: "off" }))).checks.find((c) => c.id === "database")!;
    assert.is(link.status, "ok", link.detail);
    assert.ok(link.detail.includes(`answers, ${ids.length} migrations applied`) && !link.detail.includes("pending"), link.detail);
  } finally {
    removeHome(home);
  }
});

test("/api/health answers 503 with the database as error once PostgreSQL is gone, within its bounded ping", async () => {
  // A cluster of its own: this test stops it under the running host.
  const own = await startPostgres();
  const h = await startTestHost({ plugins: [settingsPlugin], env: { DATABASE_URL: await own.createDatabase() } });
  try {
    assert.is((await h.json("/api/health")).body.database, "ok");
    await own.stop();
    const health = await h.json("/api/health");
    assert.is(health.status, 503);
    assert.is(health.body.status, "degraded");
    assert.is(health.body.database, "error");
  } finally {
    await h.stop();
    await own.stop();
  }
});

t("a DATABASE_URL that is not a PostgreSQL URL stops start-up with CONFIG_INVALID naming it", async () => {
  const error = await startTestHost({ plugins: [settingsPlugin], env: { DATABASE_URL: "mysql://localhost/muster" } }).then(
    async (h) => {
      await h.stop();
      return null;
    },
    (e: Error & { code?: string }) => e,
  );
  assert.ok(error, "the host started");
  assert.is(error.code, "CONFIG_INVALID");
  assert.match(error.message, /DATABASE_URL/);
});

t.run();
