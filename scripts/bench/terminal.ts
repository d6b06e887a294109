// `npm run bench:terminal`: the Speed section of issue 13. Starts the real server twice as a
// child process (terminal.sandbox "none" and "bwrap") and measures, from here over
// 127.0.0.1, the round trip of POST /api/terminal for `true` and `ls` (sequential, after a
// warm-up), p50/p99 over BENCH_TERMINAL_RUNS runs (default 200), and the sandbox's cost.
// Writes its section between the `terminal` markers (see output.ts for --record). Stops
// the children and removes its temp directories on every exit path.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { benchmarksFile, wroteTo } from "./output.ts";
import { cleanupAll, freePort, removeTempDir, startServer, stopServer, tempDir, type RunningServer } from "./processes.ts";
import { median } from "./report.ts";
import { detectSandbox } from "../../plugins/terminal/services/sandbox.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const RUNS = Number(process.env.BENCH_TERMINAL_RUNS ?? 200);
const WARMUP = Math.min(20, RUNS);
const COMMANDS = ["true", "ls"] as const;
const TARGET_P50_MS = { none: 30, bwrap: 80 } as const;
type Mode = keyof typeof TARGET_P50_MS;

const log = (message: string) => console.error(`[bench:terminal] ${message}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    cleanupAll();
    process.exit(130);
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

interface Server extends RunningServer {
  home: string;
  token: string;
}

async function startMuster(sandbox: Mode): Promise<Server> {
  const home = tempDir("muster-bench-terminal-");
  // perMinute raised: the bench starts far more commands per minute than the default allows.
  writeFileSync(join(home, "muster.config.json"), JSON.stringify({ config: { terminal: { sandbox, perMinute: 10_000 } } }));
  const port = await freePort();
  const server = await startServer({
    name: `muster (${sandbox})`,
    args: ["core/entry.js", "start"],
    env: { PORT: String(port), MUSTER_HOME: home, WORKSPACE_DIR: join(home, "ws"), LOG_LEVEL: "warn" },
    port,
    cwd: ROOT,
    timeoutMs: 30_000,
  });
  return { ...server, home, token: readFileSync(join(home, "session-token"), "utf8").trim() };
}

interface Sample {
  wallMs: number;
  serverMs: number;
}

async function runOnce(server: Server, command: string, cwd: string): Promise<Sample> {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${server.port}/api/terminal`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-session-token": server.token },
    body: JSON.stringify({ command, cwd }),
  });
  const body = (await res.json()) as { ok: boolean; exitCode: number; durationMs: number; sandbox: string };
  const wallMs = performance.now() - started;
  if (res.status !== 200 || body.exitCode !== 0) throw new Error(`${command}: ${res.status} ${JSON.stringify(body)}`);
  return { wallMs, serverMs: body.durationMs };
}

interface Row {
  mode: Mode;
  command: string;
  p50: number;
  p99: number;
  serverP50: number;
}

async function measure(mode: Mode, cwd: string): Promise<Row[]> {
  const server = await startMuster(mode);
  try {
    const rows: Row[] = [];
    for (const command of COMMANDS) {
      for (let i = 0; i < WARMUP; i++) await runOnce(server, command, cwd);
      const samples: Sample[] = [];
      for (let i = 0; i < RUNS; i++) samples.push(await runOnce(server, command, cwd));
      const wall = samples.map((s) => s.wallMs);
      rows.push({ mode, command, p50: percentile(wall, 50), p99: percentile(wall, 99), serverP50: median(samples.map((s) => s.serverMs)) });
      log(`${mode} ${command}: p50 ${percentile(wall, 50).toFixed(1)} ms, p99 ${percentile(wall, 99).toFixed(1)} ms`);
    }
    return rows;
  } finally {
    await stopServer(server.child);
    removeTempDir(server.home);
  }
}

function render(rows: Row[], preliminary: boolean): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const lines = [
    "## Terminal (`npm run bench:terminal`)",
    "",
    `${new Date().toISOString()}, ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(1)}, ${RUNS} sequential runs per row after ${WARMUP} warm-up runs` +
      (preliminary ? " — **preliminary: short run on a busy machine**" : ""),
    "",
    "Method: the real server (`node core/main.ts start`) is started twice as a child process with a fresh `MUSTER_HOME`, once with " +
      "`terminal.sandbox: \"none\"` and once with `\"bwrap\"` (skipped when bubblewrap cannot run). For each, `true` and `ls` (three files in a " +
      "temp `cwd`) are sent one at a time as `POST /api/terminal` with the session token, after warm-up runs; the round trip is measured by " +
      "the client over 127.0.0.1 (HTTP, validation, blocklist and cwd checks, spawn, output, redaction, response). \"server\" is the `durationMs` " +
      "the answer reports (spawn to exit). The sandbox's cost is the bwrap row minus the none row. With Muster running as root, bwrap mode also " +
      "creates and removes a pids cgroup per command (see docs/terminal.md). `BENCH_TERMINAL_RUNS` changes the run count (a count under 200 is marked preliminary).",
    "",
    "| mode | command | p50 | p99 | server p50 | target p50 | met |",
    "|---|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.mode} | \`${r.command}\` | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.serverP50)} | < ${TARGET_P50_MS[r.mode]} ms | ${r.p50 < TARGET_P50_MS[r.mode] ? "yes" : "**no**"} |`),
    "",
  ];
  for (const command of COMMANDS) {
    const none = rows.find((r) => r.mode === "none" && r.command === command);
    const bwrap = rows.find((r) => r.mode === "bwrap" && r.command === command);
    if (none && bwrap) lines.push(`- Sandbox cost for \`${command}\`: +${(bwrap.p50 - none.p50).toFixed(1)} ms at p50 (${(bwrap.p50 / none.p50).toFixed(2)}×), +${(bwrap.p99 - none.p99).toFixed(1)} ms at p99.`);
  }
  if (!rows.some((r) => r.mode === "bwrap")) lines.push("- bwrap could not run on this machine: only the unsandboxed mode was measured.");
  return lines.join("\n");
}

function writeTerminalSection(file: string, markdown: string): void {
  const start = "<!-- terminal:start -->";
  const end = "<!-- terminal:end -->";
  const section = `${start}\n${markdown.trimEnd()}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n";
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  writeFileSync(file, from >= 0 && to > from ? current.slice(0, from) + section + current.slice(to + end.length) : `${current.trimEnd()}\n\n${section}\n`);
}

async function main(): Promise<void> {
  const cwd = tempDir("muster-bench-terminal-cwd-");
  for (const name of ["a.md", "b.md", "c.txt"]) writeFileSync(join(cwd, name), name);
  const rows = await measure("none", cwd);
  // The same trial run the server makes at start.
  const sandbox = await detectSandbox({ maxProcesses: 256, maxFileBytes: 1024 ** 3, cpuSeconds: 120 });
  if (sandbox.sandbox === "bwrap") rows.push(...(await measure("bwrap", cwd)));
  else log(`bwrap cannot run here (${sandbox.reason}); measuring the unsandboxed mode only`);
  removeTempDir(cwd);
  const file = benchmarksFile();
  writeTerminalSection(file, render(rows, RUNS < 200));
  log(wroteTo(file, "the terminal section"));
}

const deadline = setTimeout(() => {
  log("did not finish within 10 minutes; giving up");
  cleanupAll();
  process.exit(1);
}, 10 * 60_000);
deadline.unref();

main().then(
  () => {
    cleanupAll();
    process.exit(0);
  },
  (error) => {
    log(String(error instanceof Error ? error.stack : error));
    cleanupAll();
    process.exit(1);
  },
);
