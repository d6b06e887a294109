import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/lib/free-port.ts";
import { removeHome } from "../helpers/start-test-host.ts";

// Runs core/main.ts the way `npm start` does: on Node's built-in type stripping, no tsx.
const t = suite("muster command");
const root = new URL("../..", import.meta.url).pathname;
const main = join(root, "core/main.ts");

async function waitForHealth(url: string, deadlineMs: number): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(500) });
      if (res.ok) return true;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

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

t.run();
