// Start-up before/after (issue 26): `muster start` (core/entry.js, what `npm start` runs) of
// two or more checkouts, spawned alternately (the order flips each round), each on a new
// home: spawn to the first 200 on /api/health, the main thread's CPU by then (from /proc:
// steadier than wall time on a shared machine), and the server's own start phases.
//   node --conditions=source --import tsx scripts/bench/start-ab.ts --rounds 10 before=/tmp/before after=.
// --warmup N (default 1): unrecorded starts of each checkout first (the compile cache's first fill).
// --home-template=<dir>: each home starts as a copy of <dir> (e.g. a home with a 10,000-file
// workspace, or one with a saved search index; timestamps kept). --search=<word>: also time
// spawn to the first POST /api/search that finds something. Each checkout runs its own
// start-up bundle (build it there first: node core/start/build-bundle.ts).
// After health, also spawn to the first 200 of a plugin's route (GET /api/tasks): since the
// server listens before the plugins' onStart, health can answer before the plugins serve.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, mainThreadCpuMs, removeTempDir } from "./processes.ts";

interface Run {
  healthMs: number;
  cpuMs: number;
  /** Spawn to the first 200 of GET /api/tasks (held at the start gate until the plugins have started). */
  tasksMs: number;
  searchMs?: number;
  phases: { name: string; ms: number; cpuMs?: number }[];
}

/** The main thread's CPU from the process's start to listening, from the server's own phases (NaN when it does not report them). */
function cpuToListen(run: Run): number {
  const upTo = run.phases.findIndex((p) => p.name === "listen");
  if (upTo < 0 || run.phases[0]?.cpuMs === undefined) return NaN;
  return run.phases.slice(0, upTo + 1).reduce((sum, p) => sum + (p.cpuMs ?? 0), 0);
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
};
const rounds = Number(option("rounds") ?? 10);
const warmup = Number(option("warmup") ?? 1);
const template = option("home-template");
const searchWord = option("search");
const trees = args.filter((a) => /^[\w-]+=/.test(a) && !a.startsWith("--")).map((a) => [a.slice(0, a.indexOf("=")), resolve(a.slice(a.indexOf("=") + 1))] as const);
const LIMIT_MS = 120_000;

function call(port: number, path: string, body?: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((done) => {
    const headers: Record<string, string> = { ...(body ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}`, "x-session-token": token } : {}) };
    const req = request({ host: "127.0.0.1", port, path, method: body ? "POST" : "GET", headers }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => done({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", () => done({ status: 0, body: "" }));
    req.end(body);
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startOnce(dir: string): Promise<Run> {
  const home = mkdtempSync(join(tmpdir(), "muster-start-ab-"));
  if (template) cpSync(template, home, { recursive: true, preserveTimestamps: true });
  const port = await freePort();
  const began = performance.now();
  const child = spawn(join(dir, "node_modules/.bin/node"), ["core/entry.js", "start"], {
    cwd: dir,
    env: { ...process.env, MUSTER_HOME: home, LOG_LEVEL: "info", PORT: String(port), GATEWAY_URL: "off" },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const exited = new Promise((r) => child.once("exit", r));
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  const run: Run = { healthMs: NaN, cpuMs: NaN, tasksMs: NaN, phases: [] };
  try {
    while (performance.now() - began < LIMIT_MS) {
      if ((await call(port, "/api/health")).status === 200) {
        run.healthMs = performance.now() - began;
        run.cpuMs = mainThreadCpuMs(child.pid!);
        break;
      }
      await pause(5);
    }
    const token = Number.isNaN(run.healthMs) ? "" : readFileSync(join(home, "session-token"), "utf8").trim();
    if (token && (await call(port, "/api/tasks", undefined, token)).status === 200) run.tasksMs = performance.now() - began;
    if (searchWord && token) {
      while (performance.now() - began < LIMIT_MS) {
        const answer = await call(port, "/api/search", JSON.stringify({ query: searchWord }), token);
        if (answer.status === 200 && (JSON.parse(answer.body) as { results?: unknown[] }).results?.length) {
          run.searchMs = performance.now() - began;
          break;
        }
        await pause(5);
      }
    }
    for (let i = 0; i < 50 && !output.includes('"muster started"'); i++) await pause(20);
    const line = output.split("\n").find((l) => l.includes('"muster started"'));
    run.phases = line ? (JSON.parse(line) as { startup: Run["phases"] }).startup : [];
  } finally {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    removeTempDir(home);
  }
  return run;
}

const median = (values: number[]) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[sorted.length >> 1]!) : NaN;
};

const results = new Map<string, Run[]>(trees.map(([name]) => [name, []]));
// Unrecorded starts first: the first start after a bundle build compiles every chunk and
// writes Node's compile cache, a cost no later start has (--warmup 0 to keep it).
for (let i = 0; i < warmup; i++) for (const [, dir] of trees) await startOnce(dir);
for (let round = 0; round < rounds; round++) {
  for (const [name, dir] of round % 2 ? [...trees].reverse() : trees) {
    const run = await startOnce(dir);
    results.get(name)!.push(run);
    console.log(`${name}: health ${Math.round(run.healthMs)} ms, main-thread CPU ${run.cpuMs} ms (to listen ${Math.round(cpuToListen(run))} ms), GET /api/tasks ${Math.round(run.tasksMs)} ms${run.searchMs ? `, search ${Math.round(run.searchMs)} ms` : ""}`);
  }
}
console.log(`\nload average at the end: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
for (const [name, runs] of results) {
  const phases = new Map<string, number[]>();
  for (const run of runs) for (const phase of run.phases) phases.set(phase.name, [...(phases.get(phase.name) ?? []), phase.ms]);
  console.log(`${name}: health median ${median(runs.map((r) => r.healthMs))} ms, main-thread CPU median ${median(runs.map((r) => r.cpuMs))} ms (to listen ${median(runs.map(cpuToListen))} ms), GET /api/tasks median ${median(runs.map((r) => r.tasksMs))} ms${searchWord ? `, search median ${median(runs.map((r) => r.searchMs ?? NaN))} ms` : ""} (${runs.length} runs)`);
  console.log(`  phases (median ms, 5 ms and over): ${[...phases].filter(([, v]) => median(v) >= 5).map(([k, v]) => `${k} ${median(v)}`).join(" | ")}`);
  const cpu = new Map<string, number[]>();
  for (const run of runs) for (const phase of run.phases) if (phase.cpuMs !== undefined) cpu.set(phase.name, [...(cpu.get(phase.name) ?? []), phase.cpuMs]);
  if (cpu.size) console.log(`  phases' main-thread CPU (median ms, 3 ms and over): ${[...cpu].filter(([, v]) => median(v) >= 3).map(([k, v]) => `${k} ${median(v)}`).join(" | ")}`);
}
if (trees.length === 2) {
  const [a, b] = trees.map(([name]) => results.get(name)!);
  const ratios = a!.map((run, i) => b![i]!.cpuMs / run.cpuMs).filter((r) => !Number.isNaN(r)).sort((x, y) => x - y);
  console.log(`${trees[1]![0]}/${trees[0]![0]} main-thread CPU, per round: median ${ratios[ratios.length >> 1]?.toFixed(2)}, lower in ${ratios.filter((r) => r < 1).length} of ${ratios.length}`);
  const toListen = a!.map((run, i) => cpuToListen(b![i]!) / cpuToListen(run)).filter((r) => !Number.isNaN(r)).sort((x, y) => x - y);
  if (toListen.length) console.log(`${trees[1]![0]}/${trees[0]![0]} main-thread CPU to listen, per round: median ${toListen[toListen.length >> 1]?.toFixed(2)}, lower in ${toListen.filter((r) => r < 1).length} of ${toListen.length}`);
}
