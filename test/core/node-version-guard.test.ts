// An old Node (the system's Node 20) on Muster's entry points says "use Node 24" and exits 1
// instead of segfaulting in better-sqlite3 (issue 27, item 7).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { suite } from "uvu";
import * as assert from "uvu/assert";

const t = suite("node version guard");
const ROOT = new URL("../..", import.meta.url).pathname;
const OLD_NODE = "/usr/bin/node";
const oldMajor = existsSync(OLD_NODE) ? Number(/^v(\d+)/.exec(spawnSync(OLD_NODE, ["--version"], { encoding: "utf8" }).stdout)?.[1] ?? 0) : 0;
const haveOldNode = oldMajor > 0 && oldMajor < 24;

function runOld(args: string[]): Promise<{ code: number | null; signal: string | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(OLD_NODE, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

const ENTRIES: [string, string[]][] = [
  ["the muster command (core/entry.js, what npm start runs)", ["core/entry.js", "--version"]],
  ["the muster command by its earlier name (core/main.ts)", ["--import", "tsx", "core/main.ts", "--version"]],
  ["a test file using better-sqlite3 through the core driver", ["--conditions=source", "--import", "tsx", "test/core/sqlite-driver.test.ts"]],
  ["the test host helper", ["--conditions=source", "--import", "tsx", "test/helpers/start-test-host.ts"]],
];

for (const [name, args] of ENTRIES) {
  t(`Node ${oldMajor || "<24"} on ${name}: "needs Node.js 24", exit 1, no crash`, async () => {
    if (!haveOldNode) return console.log(`  (skipped: no Node older than 24 at ${OLD_NODE})`);
    const run = await runOld(args);
    assert.is(run.signal, null, `killed by ${run.signal}: ${run.output}`);
    assert.is(run.code, 1, run.output);
    assert.match(run.output, "Muster needs Node.js 24 or newer");
    assert.match(run.output, `this is Node v${oldMajor}.`);
  });
}

t.run();
