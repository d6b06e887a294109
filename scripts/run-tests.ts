// Runs every suite of the project and prints one closing line `N passed, N failed, N skipped`.
//
// Each `test/**/*.test.ts` file is a uvu suite that runs itself (`test.run()`); it runs in
// its own process so a crash or a leaked handle in one suite cannot hide or hang another.
// Extra suites (type check, Solidity tests) are commands whose output is parsed for counts.
// Usage: npm test [-- <path filter> ...]   e.g. `npm test -- test/plugins/work`
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { cpus } from "node:os";
import { extraSuites, type SuiteCounts } from "./test-suites.ts";
import { loadTimeScale } from "../core/plugin-api/testing/time-scale.ts";

const root = new URL("..", import.meta.url).pathname;
const filters = process.argv.slice(2);
// One factor for the whole run, read from the load as it starts (or given): every suite's waits
// and timed assertions stretch by it (core/plugin-api/testing/time-scale.ts, in the test kit), and so does the per-file cap.
const timeScale = Number(process.env.MUSTER_TEST_TIME_SCALE) >= 1 ? Number(process.env.MUSTER_TEST_TIME_SCALE) : loadTimeScale();
const FILE_TIMEOUT_MS = 8 * 60_000 * timeScale;
const parallel = Math.max(1, Math.min(2, cpus().length));

function findTests(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "fixtures") continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) found.push(...findTests(full));
    else if (name.endsWith(".test.ts")) found.push(relative(root, full));
  }
  return found.sort();
}

const ANSI = /\x1b\[[0-9;]*m/g;

/** Reads uvu's summary block ("Total: n / Passed: n / Skipped: n"). */
export function parseUvu(output: string): SuiteCounts | null {
  const text = output.replace(ANSI, "");
  const total = /Total:\s+(\d+)/.exec(text);
  const passed = /Passed:\s+(\d+)/.exec(text);
  const skipped = /Skipped:\s+(\d+)/.exec(text);
  if (!total || !passed) return null;
  const t = Number(total[1]);
  const p = Number(passed[1]);
  const s = skipped ? Number(skipped[1]) : 0;
  return { passed: p, failed: Math.max(0, t - p - s), skipped: s };
}

interface Job {
  name: string;
  command: string;
  args: string[];
  parse: (output: string, exitCode: number) => SuiteCounts;
  /** Another way to run the same suite, when this one's output shows it could not load. */
  instead?: (output: string) => Job | undefined;
}

/** Process groups of the suites running now. */
const running = new Set<number>();
// Each suite runs detached (its own process group), so a signal to this runner (Ctrl-C, a
// `timeout` around `npm test`, CI cancelling) would not reach it: the suite would live on
// with its server listening and keep using the CPU. Take them down with the runner.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    for (const pid of running) {
      try { process.kill(-pid, "SIGKILL"); } catch { /* already gone */ }
    }
    process.exit(1);
  });
}

function run(job: Job): Promise<{ job: Job; counts: SuiteCounts; output: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(job.command, job.args, {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", LOG_LEVEL: process.env.LOG_LEVEL ?? "silent", MUSTER_TEST_TIME_SCALE: String(timeScale) },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    if (child.pid !== undefined) running.add(child.pid);
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n[runner] ${job.name} exceeded ${FILE_TIMEOUT_MS / 1000}s and was killed\n`;
      try { process.kill(-child.pid!, "SIGKILL"); } catch { /* already gone */ }
    }, FILE_TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (child.pid !== undefined) running.delete(child.pid);
      const exitCode = code ?? 1;
      const counts = job.parse(output, exitCode);
      resolve({ job, counts, output, ms: Date.now() - started });
    });
  });
}

// Node 24 strips types itself (the project's tsconfig keeps to erasable syntax, so it can):
// that saves tsx's loader, about half a second of CPU per suite file, a minute or two of a
// full run. MUSTER_TEST_LOADER=tsx goes back to tsx (e.g. to try syntax Node cannot strip).
const nativeTypeScript = process.env.MUSTER_TEST_LOADER !== "tsx" && Boolean(process.features.typescript);
/**
 * Node refuses to strip a .ts file under node_modules, and `--conditions=source` also picks a
 * dependency's own `source` export where it has one (eventsource-parser's, reached through the
 * MCP SDK's client): such a suite fails at its first import, and runs again under tsx.
 */
const CANNOT_STRIP = "ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING";

function uvuJob(file: string, native = nativeTypeScript): Job {
  return {
    name: file,
    command: process.execPath,
    // `source`: workspace packages (@muster/plugin) resolve to their TypeScript, not a dist/ build.
    args: ["--conditions=source", ...(native ? [] : ["--import", "tsx"]), file],
    instead: (output) => (native && output.includes(CANNOT_STRIP) ? uvuJob(file, false) : undefined),
    parse: (output, exitCode) => {
      const counts = parseUvu(output);
      if (!counts) return { passed: 0, failed: 1, skipped: 0 }; // crashed before its summary
      if (exitCode !== 0 && counts.failed === 0) counts.failed = 1; // crashed after it
      return counts;
    },
  };
}

const matches = (name: string) => filters.length === 0 || filters.some((f) => name.includes(f));
const jobs: Job[] = [
  ...extraSuites(process.execPath).filter((s) => matches(s.name)),
  ...findTests(join(root, "test")).filter(matches).map((file) => uvuJob(file)),
];

const totals: SuiteCounts = { passed: 0, failed: 0, skipped: 0 };
const failedJobs: string[] = [];
let next = 0;
async function worker() {
  while (next < jobs.length) {
    const first = jobs[next++]!;
    let result = await run(first);
    const instead = first.instead?.(result.output);
    if (instead) result = await run(instead);
    const { job, counts, output, ms } = result;
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    totals.skipped += counts.skipped;
    const mark = counts.failed > 0 ? "FAIL" : "ok  ";
    console.log(`${mark} ${job.name} (${counts.passed} passed, ${counts.failed} failed, ${(ms / 1000).toFixed(1)}s)`);
    if (counts.failed > 0) {
      failedJobs.push(job.name);
      console.log(output.replace(ANSI, "").split("\n").map((l) => `     | ${l}`).join("\n"));
    }
  }
}
if (timeScale > 1) console.log(`[runner] loaded machine: test time bounds x${timeScale} (MUSTER_TEST_TIME_SCALE to override)`);
await Promise.all(Array.from({ length: parallel }, worker));
if (failedJobs.length) console.log(`\nFailed suites:\n${failedJobs.map((f) => `  ${f}`).join("\n")}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exitCode = totals.failed > 0 || jobs.length === 0 ? 1 : 0;
