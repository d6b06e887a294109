import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/lib/free-port.ts";
import { removeHome } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";

// Runs core/main.ts the way `npm start` does: on Node's built-in type stripping, no tsx.
const t = suite("muster command");
const root = new URL("../..", import.meta.url).pathname;
const main = join(root, "core/main.ts");

/** True once `/api/health` answers 200, false when `deadlineMs` passes first. */
const waitForHealth = (url: string, deadlineMs: number): Promise<boolean> =>
  waitUntil(() => fetch(`${url}/api/health`, { signal: AbortSignal.timeout(500) }).then((res) => res.ok, () => false /* not up yet */), {
    timeoutMs: deadlineMs,
    intervalMs: 20,
  }).then(
    () => true,
    () => false,
  );

t("muster start serves the API, keeps data, and stops cleanly on SIGTERM and SIGINT", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-cli-"));
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const port = await freePort();
    const child = spawn(process.execPath, [main, "start"], {
      env: { ...process.env, PORT: String(port), MUSTER_HOME: home, WORKSPACE_DIR: join(home, "ws"), LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    const url = `http://127.0.0.1:${port}`;
    try {
      assert.ok(await waitForHealth(url, 20_000), `server did not come up: ${output}`);
      const created = await fetch(`${url}/api/tasks`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: signal }) });
      assert.is(created.status, 201);
      const titles = ((await (await fetch(`${url}/api/tasks`)).json()) as { title: string }[]).map((x) => x.title);
      if (signal === "SIGINT") assert.ok(titles.includes("SIGTERM"), "data survived the previous run");
      const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill(signal);
      const code = await Promise.race([exit, new Promise<string>((r) => setTimeout(() => r("timeout"), 10_000))]);
      assert.is(code, 0, `exit after ${signal}: ${output}`);
    } finally {
      child.kill("SIGKILL");
    }
  }
  removeHome(home);
});

t("a bad configuration stops start-up with a message naming the variable", () => {
  const home = mkdtempSync(join(tmpdir(), "muster-cli-"));
  const run = spawnSync(process.execPath, [main, "start"], {
    env: { ...process.env, PORT: "not-a-port", MUSTER_HOME: home },
    encoding: "utf8",
    timeout: 30_000,
  });
  assert.is(run.status, 1);
  assert.match(run.stderr, /CONFIG_INVALID: Invalid environment: PORT/);
  const exposed = spawnSync(process.execPath, [main, "start"], {
    env: { ...process.env, HOST: "0.0.0.0", MUSTER_HOME: home, MUSTER_API_TOKEN: "" },
    encoding: "utf8",
    timeout: 30_000,
  });
  assert.is(exposed.status, 1);
  assert.match(exposed.stderr, /MUSTER_API_TOKEN/);
  removeHome(home);
});

t("unknown commands print usage and exit 2", () => {
  const run = spawnSync(process.execPath, [main, "frobnicate"], { encoding: "utf8", timeout: 30_000 });
  assert.is(run.status, 2);
  assert.match(run.stderr, /Usage: muster/);
});

/** Starts `muster start` and resolves with the URL from its start line on stderr. */
function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [main, "start"], { env: { ...process.env, LOG_LEVEL: "warn", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  const ready = new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (c) => {
      output += c;
      const match = /is listening on (\S+); session token in (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`muster start exited (${code}): ${output}`)));
  });
  const stopped = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, ready, stopped, output: () => output };
}

const cli = (args: string[], env: Record<string, string>) => spawnSync(process.execPath, [main, ...args], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 30_000 });

t("a second start on the same MUSTER_HOME exits 1 at once naming the running one; muster status reports it", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-cli-"));
  const env = { MUSTER_HOME: home, WORKSPACE_DIR: join(home, "ws"), PORT: "0" };
  const first = startServer(env);
  try {
    const url = await first.ready;
    assert.match(first.output(), new RegExp(`session token in ${join(home, "session-token")}`), "the start line says where the token lives");
    const token = readFileSync(join(home, "session-token"), "utf8");

    const second = cli(["start"], env);
    assert.is(second.status, 1);
    assert.is(second.stderr.trim().split("\n").length, 1, `one line: ${second.stderr}`);
    assert.match(second.stderr, new RegExp(`INSTANCE_RUNNING: .*pid ${first.child.pid} at ${url.replace(/[.]/g, "\\.")}`));
    assert.is(readFileSync(join(home, "session-token"), "utf8"), token, "the running server's token is untouched");
    assert.ok((await fetch(`${url}/api/health`)).ok, "the first server still serves");

    const status = cli(["status"], env);
    assert.is(status.status, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`url: +${url.replace(/[.]/g, "\\.")}`));
    assert.match(status.stdout, new RegExp(`pid: +${first.child.pid}\n`));
    assert.match(status.stdout, /version: +\d+\.\d+\.\d+/);
    assert.match(status.stdout, /uptime: +\d+s/);
    assert.match(status.stdout, /database: +ok/);
  } finally {
    first.child.kill("SIGTERM");
  }
  assert.is(await first.stopped, 0);
  const none = cli(["status"], env);
  assert.is(none.status, 1);
  assert.match(none.stderr, /no server is running on MUSTER_HOME/);
  removeHome(home);
});

t("muster migrate applies the pending migrations and exits; again it applies none; it refuses under a running server; start then applies nothing", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-cli-"));
  const env = { MUSTER_HOME: home, WORKSPACE_DIR: join(home, "ws"), PORT: "0" };
  try {
    const first = cli(["migrate"], env);
    assert.is(first.status, 0, first.stderr);
    const ids = first.stdout.trim().split("\n");
    assert.ok(ids.includes("work:001-work-records") && ids.includes("approvals:001-approvals"), first.stdout);
    assert.ok(ids.every((id) => /^[a-z-]+:\d{3}-[a-z0-9-]+$/.test(id)), `one id per line: ${first.stdout}`);
    assert.match(first.stderr, new RegExp(`Applied ${ids.length} migration\\(s\\) to SQLite`));
    assert.not.ok(existsSync(join(home, "muster.lock")), "the lock is released");

    const again = cli(["migrate"], env);
    assert.is(again.status, 0, again.stderr);
    assert.is(again.stdout, "");
    assert.match(again.stderr, /no pending migration/);

    const server = startServer({ ...env, LOG_LEVEL: "info" });
    try {
      await server.ready;
      const refused = cli(["migrate"], env);
      assert.is(refused.status, 1);
      assert.match(refused.stderr, /INSTANCE_RUNNING/);
      assert.not.match(server.output(), /migration applied/, "the start found the database current");
    } finally {
      server.child.kill("SIGTERM");
    }
    assert.is(await server.stopped, 0);
  } finally {
    removeHome(home);
  }
});

t("a port in use is one line naming PORT, exit 1, and leaves no lock", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-cli-"));
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
  const port = (blocker.address() as { port: number }).port;
  try {
    const run = cli(["start"], { MUSTER_HOME: home, WORKSPACE_DIR: join(home, "ws"), PORT: String(port), LOG_LEVEL: "silent" });
    assert.is(run.status, 1);
    assert.is(run.stderr.trim(), `muster: PORT_IN_USE: Port ${port} is in use on 127.0.0.1 (PORT=${port}); set PORT to another port`);
    assert.not.ok(existsSync(join(home, "muster.lock")), "no lock left behind");
  } finally {
    blocker.close();
  }
  removeHome(home);
});

t("muster --version prints the package version; --help documents exit codes", () => {
  const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
  const run = cli(["--version"], {});
  assert.is(run.status, 0);
  assert.is(run.stdout, `${version}\n`);
  const help = cli(["--help"], {});
  assert.is(help.status, 0);
  assert.match(help.stdout, /Exit codes: 0 success; 1 failure/);
  assert.match(help.stdout, /status +the running server/);
});

t.run();
