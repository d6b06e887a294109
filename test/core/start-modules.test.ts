import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/lib/free-port.ts";
import { removeHome } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";

// Cold start has a 1 s budget and every module loaded before listen costs time: libraries
// that serve only some requests are imported on first use (docs/architecture.md). This
// checks `muster start` from the sources (the start-up bundle keeps the same split: each
// deferred import is a chunk of its own, loaded on first use), and that the deferred import works.
const t = suite("modules loaded by muster start");
const root = new URL("../..", import.meta.url).pathname;
const recorder = join(root, "test/core/fixtures/record-modules.mjs");

/** Not loaded until a request needs them: the MCP SDK (/mcp), viem and the marketplace SDK (a pack's licence check), all of semver. */
const DEFERRED = [/\/node_modules\/@modelcontextprotocol\//, /\/node_modules\/viem\//, /\/sdk\/src\//, /\/node_modules\/semver\/index\.js$/];

t("the MCP SDK, viem, the marketplace SDK and semver's index are not loaded to answer /api/health; /mcp loads the SDK and answers", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-modules-"));
  const out = join(home, "modules.json");
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", recorder, join(root, "core/main.ts"), "start"], {
    env: { ...process.env, PORT: String(port), MUSTER_HOME: home, WORKSPACE_DIR: join(home, "ws"), LOG_LEVEL: "warn", MUSTER_TEST_MODULES_OUT: out, MUSTER_START_BUNDLE: "off" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (c) => (stderr += c));
  const url = `http://127.0.0.1:${port}`;
  /** The modules the server has loaded so far (the recorder writes them on SIGUSR2). */
  const loaded = async (): Promise<string[]> => {
    rmSync(out, { force: true });
    child.kill("SIGUSR2");
    await waitUntil(() => existsSync(out), { timeoutMs: 10_000, label: "the module list" });
    return waitUntil(() => {
      try {
        return JSON.parse(readFileSync(out, "utf8")) as string[];
      } catch {
        return null; // still being written
      }
    }, { label: "a complete module list" });
  };
  try {
    await waitUntil(() => fetch(`${url}/api/health`).then((res) => res.ok, () => false /* not up yet */), { timeoutMs: 20_000, intervalMs: 20 }).catch(() => {
      throw new Error(`server did not come up: ${stderr}`);
    });
    const atStart = await loaded();
    assert.ok(atStart.length > 100, "the recorder saw the server's modules");
    for (const pattern of DEFERRED) assert.is(atStart.find((u) => pattern.test(u)), undefined, `loaded at start: ${pattern}`);

    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    const res = await fetch(`${url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(init) });
    assert.is(res.status, 200);
    assert.type(((await res.json()) as { result?: { serverInfo?: { name?: unknown } } }).result?.serverInfo?.name, "string");
    assert.ok((await loaded()).some((u) => DEFERRED[0]!.test(u)), "the first /mcp request loaded the SDK");
  } finally {
    child.kill("SIGKILL");
    await new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.once("exit", resolve) : resolve(null)));
    removeHome(home);
  }
});

t.run();
