// `npm run bench:workspace`: the Speed section of issue 5. Generates a 10,000-file markdown
// workspace, runs the real server as a child process and measures from here over
// 127.0.0.1: index build, restart with the persisted index, query latency, write-to-SSE
// delay, fan-out to 1,000 SSE clients and resident memory. Writes the figures to
// docs/benchmarks.md between the `workspace` markers. Bounded in time; removes its temp
// directory and stops the child on every exit path.
//
// Issue 26's start rows (workspace-start.ts) run at the end, BENCH_START_RUNS times (3). Only
// those, against one or more checkouts spawned alternately (each with its node_modules and its
// own start-up bundle: node core/start/build-bundle.ts there first):
//   npm run bench:workspace -- --start-only --runs 5 before=/tmp/before after=.
// The fan-out row alone (workspace-fanout.ts; BENCH_SSE_CLIENTS, BENCH_FANOUT_EVENTS), the same way:
//   BENCH_FANOUT_EVENTS=100 npm run bench:workspace -- --fanout-only --runs 4 main=/tmp/main this=. [--client sse] [--profile]
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { request as httpRequest, Agent } from "node:http";
import { cpus, loadavg, totalmem, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { freePort } from "../lib/free-port.ts";
import { namedCheckouts } from "./processes.ts";
import { benchmarksFile, wroteTo } from "./output.ts";

import { LEXICON, VOCABULARY, generateWorkspace, rng, zipf } from "./workspace-corpus.ts";
import { measureStarts, renderStarts } from "./workspace-start.ts";
import { connectSse, describeRun, fanoutOnly, measureFanout, percentile as fanoutPercentile, type FanoutClientKind } from "./workspace-fanout.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const SSE_CLIENTS = Number(process.env.BENCH_SSE_CLIENTS ?? 1_000);
// Shrink for a short check run: BENCH_FILES=1000 BENCH_SSE_CLIENTS=100 BENCH_QUERIES=50 BENCH_WRITES=10 BENCH_FANOUT_EVENTS=5.
const QUERIES = Number(process.env.BENCH_QUERIES ?? 500);
const WRITES = Number(process.env.BENCH_WRITES ?? 100);
const FANOUT_EVENTS = Number(process.env.BENCH_FANOUT_EVENTS ?? 20);
const START_RUNS = Number(process.env.BENCH_START_RUNS ?? 3);
const OVERALL_TIMEOUT_MS = 10 * 60_000;
const args = process.argv.slice(2);
const START_ONLY = args.includes("--start-only");
const FANOUT_ONLY = args.includes("--fanout-only");
/** The value of `--name value` or `--name=value`. */
const option = (name: string) => {
  const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  return i < 0 ? undefined : args[i]!.includes("=") ? args[i]!.slice(name.length + 1) : args[i + 1];
};
const runsArg = option("--runs");

// ---------------------------------------------------------------- helpers

const agent = new Agent({ keepAlive: true, maxSockets: 4 });
let baseUrl = "";


function http(method: string, path: string, body?: unknown, timeoutMs = 120_000): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      `${baseUrl}${path}`,
      { method, agent, headers: payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          try {
            resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined });
          } catch {
            resolve({ status: res.statusCode ?? 0, json: text });
          }
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on("error", reject);
    req.end(payload);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
const ms = (v: number) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(0)} ms` : "n/a");
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

function rssOf(pid: number): { rssKb: number; peakKb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(/(\d+) kB/.exec(status.split("\n").find((l) => l.startsWith(name)) ?? "")?.[1] ?? NaN);
  return { rssKb: field("VmRSS:"), peakKb: field("VmHWM:") };
}

// ---------------------------------------------------------------- server child process

let child: ChildProcess | undefined;

async function startServer(env: NodeJS.ProcessEnv): Promise<{ listeningMs: number; spawnedAt: number }> {
  const spawnedAt = performance.now();
  child = spawn(process.execPath, ["core/entry.js", "start"], { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => void (stderr = (stderr + c.toString()).slice(-4000)));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    try {
      const res = await http("GET", "/api/health", undefined, 1_000);
      if (res.status === 200) return { listeningMs: performance.now() - spawnedAt, spawnedAt };
    } catch {
      /* not listening yet */
    }
    await sleep(10);
  }
}

async function stopServer(): Promise<void> {
  const running = child;
  child = undefined;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise<void>((r) => running.once("exit", () => r()));
  running.kill("SIGTERM");
  const timer = setTimeout(() => running.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Searches until an answer's stats satisfy `done` (default: the start-up load or build and
 * any re-index ended); returns the ms from `since` to that answer.
 */
async function waitIndex(since: number, done: (stats: any) => boolean = (stats) => stats.indexing === false): Promise<{ readyMs: number; stats: any }> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await http("GET", "/api/search?q=agent&limit=1");
    if (res.status === 200 && done(res.json.stats)) return { readyMs: performance.now() - since, stats: res.json.stats };
    if (Date.now() > deadline) throw new Error(`search index not ready: ${JSON.stringify(res.json)}`);
    await sleep(5);
  }
}

/** Resolves once the index has been saved after `previous` (the save follows a build as the next queued task). */
async function waitSaved(previous: string | undefined): Promise<void> {
  await waitIndex(performance.now(), (stats) => stats.indexing === false && stats.lastSave && stats.lastSave.savedAt !== previous);
}

interface Latency {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

/** Sequential GET /api/health and GET /api/tasks, alternating, until `until` settles. */
async function apiLatencyWhile(until: Promise<unknown>): Promise<Latency> {
  let settled = false;
  const end = until.then(
    () => void (settled = true),
    () => void (settled = true),
  );
  const times: number[] = [];
  for (let i = 0; !settled; i++) {
    const t0 = performance.now();
    const res = await http("GET", i % 2 === 0 ? "/api/health" : "/api/tasks");
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`API answered ${res.status} while indexing`);
  }
  await end;
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: Math.max(...times), count: times.length };
}

// ---------------------------------------------------------------- measurements

interface Figures {
  filesBytes: number;
  /** RSS of a server started on an empty workspace: the host without any index. */
  baselineRss: { rssKb: number; peakKb: number };
  buildStats: any;
  restartStats: any;
  firstStart: { listeningMs: number; readyMs: number; buildMs: number };
  /** `POST /api/search` sent as soon as the fresh server answers health: it shares the start-up build. */
  fullBuild: { wallMs: number; serverMs: number; files: number };
  apiDuringBuild: Latency;
  reindex: { wallMs: number; serverMs: number; files: number };
  apiDuringReindex: Latency;
  memoryAfterBuild: { rssKb: number; peakKb: number };
  restart: { listeningMs: number; firstAnswerMs: number; completeMs: number; readyMs: number; loadMs: number; read: number; unchanged: number };
  saveAfterBuild: { durationMs: number; bytes: number } | null;
  oneWord: { p50: number; p99: number; hits: number };
  threeWord: { p50: number; p99: number; hits: number };
  typo: { p50: number; p99: number; hits: number };
  memoryAfterQueries: { rssKb: number; peakKb: number };
  writeToEvent: { p50: number; p99: number; missed: number } | { error: string };
  /** From the first client's receipt (p50, p99) and from the POST (postP50, postP99) to the last client's. */
  fanOut: { p50: number; p99: number; postP50: number; postP99: number; clients: number } | { error: string };
  memoryWithClients?: { rssKb: number; peakKb: number };
}

async function queryLatency(queries: string[]): Promise<{ p50: number; p99: number; hits: number }> {
  for (const q of queries.slice(0, 30)) await http("GET", `/api/search?q=${encodeURIComponent(q)}`); // warm-up
  const times: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const t0 = performance.now();
    const res = await http("GET", `/api/search?q=${encodeURIComponent(q)}`);
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`query ${q} answered ${res.status}: ${JSON.stringify(res.json)}`);
    hits += res.json.count > 0 ? 1 : 0;
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), hits };
}

async function writeToEvent(workspace: string): Promise<Figures["writeToEvent"]> {
  const sseAgent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const client = await connectSse(Number(new URL(baseUrl).port), sseAgent);
  const delays: number[] = [];
  let missed = 0;
  try {
    for (let i = 0; i < WRITES; i++) {
      const path = `memory/bench/write-${i}.md`;
      mkdirSync(join(workspace, "memory", "bench"), { recursive: true });
      const seen = new Promise<number>((resolve) => {
        const timer = setTimeout(() => resolve(NaN), 2_000);
        client.onFrame((frame) => {
          if (frame.type === "file_change" && frame.event?.path === path) {
            clearTimeout(timer);
            resolve(performance.now());
          }
        });
      });
      const t0 = performance.now();
      await writeFile(join(workspace, path), `# Write ${i}\n\nbench write number ${i}\n`);
      const at = await seen;
      if (Number.isNaN(at)) missed += 1;
      else delays.push(at - t0);
      await sleep(20);
    }
  } finally {
    client.close();
    sseAgent.destroy();
  }
  return { p50: percentile(delays, 50), p99: percentile(delays, 99), missed };
}

async function fanOut(pid: number, figures: Figures): Promise<Figures["fanOut"]> {
  const port = Number(new URL(baseUrl).port);
  const run = await measureFanout(port, pid, { clients: SSE_CLIENTS, events: FANOUT_EVENTS, onConnected: () => void (figures.memoryWithClients = rssOf(pid)) });
  console.log(`  ${describeRun(run)}`);
  const p = (values: number[], q: number) => fanoutPercentile(values, q);
  return { p50: p(run.firstToLast, 50), p99: p(run.firstToLast, 99), postP50: p(run.postToLast, 50), postP99: p(run.postToLast, 99), clients: run.clients };
}

// ---------------------------------------------------------------- report

const loadAtStart = loadavg()[0]!;

function machine(): string {
  const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
  const load = `1-minute load average ${loadAtStart.toFixed(1)} at the start and ${loadavg()[0]!.toFixed(1)} at the end of the run`;
  return `${cpus().length} vCPU (${cpu}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform}; ${load}`;
}

function check(value: number, target: number): string {
  return Number.isFinite(value) ? (value < target ? "✔" : "✘") : "";
}

function phases(report: any): string {
  const p = report?.phases;
  return p ? `listing the workspace ${ms(p.walkMs)}, reading and tokenising files ${ms(p.readMs)}, building/loading the index ${ms(p.indexMs)}` : "n/a";
}

function render(f: Figures): string {
  const w = "error" in f.writeToEvent ? undefined : f.writeToEvent;
  const o = "error" in f.fanOut ? undefined : f.fanOut;
  const latency = (l: Latency) => `${ms(l.p50)} / ${ms(l.p99)} (max ${ms(l.max)}, ${l.count} requests)`;
  const listeningToComplete = f.restart.completeMs - f.restart.listeningMs;
  const rows = [
    ["first start, existing workspace: spawn to health", ms(f.firstStart.listeningMs), "< 1 s", check(f.firstStart.listeningMs, 1000)],
    ["full build answered: `POST /api/search` sent at the first start's health (client-timed; it shares the start-up build)", ms(f.fullBuild.wallMs), "< 3 s", check(f.fullBuild.wallMs, 3000)],
    ["full index build (first start, in server)", ms(f.firstStart.buildMs), "", ""],
    ["API p50 / p99 while that build and its save run (GET /api/health, GET /api/tasks, sequential)", latency(f.apiDuringBuild), "p99 < 50 ms", check(f.apiDuringBuild.p99, 50)],
    ["full re-index `POST /api/search` on an indexed server (client-timed)", ms(f.reindex.wallMs), "", ""],
    ["API p50 / p99 while that re-index and its save run", latency(f.apiDuringReindex), "p99 < 50 ms", check(f.apiDuringReindex.p99, 50)],
    ["restart: spawn to listening", ms(f.restart.listeningMs), "", ""],
    ["restart: listening to first search answered from the complete index (state ready)", ms(listeningToComplete), "< 500 ms", check(listeningToComplete, 500)],
    ["restart: spawn to first search answered (any index state)", ms(f.restart.firstAnswerMs), "", ""],
    ["restart: spawn to first search answered from the complete index", ms(f.restart.completeMs), "", ""],
    ["restart: index load + refresh (in server; searches answer meanwhile)", ms(f.restart.loadMs), "", ""],
    ["1-word query p50 / p99 (HTTP)", `${ms(f.oneWord.p50)} / ${ms(f.oneWord.p99)}`, "p99 < 10 ms", check(f.oneWord.p99, 10)],
    ["3-word query p50 / p99 (HTTP)", `${ms(f.threeWord.p50)} / ${ms(f.threeWord.p99)}`, "p99 < 20 ms", check(f.threeWord.p99, 20)],
    ["1-word query with a typo p50 / p99", `${ms(f.typo.p50)} / ${ms(f.typo.p99)}`, "", ""],
    ["write → SSE `file_change` p50 / p99", w ? `${ms(w.p50)} / ${ms(w.p99)}` : `not measured (${(f.writeToEvent as any).error})`, "p99 < 150 ms", w ? check(w.p99, 150) : ""],
    [`one event → ${SSE_CLIENTS} SSE clients, first receipt → last client p50 / p99`, o ? `${ms(o.p50)} / ${ms(o.p99)}` : `not measured (${(f.fanOut as any).error})`, "p99 < 50 ms", o ? check(o.p99, 50) : ""],
    [`one event → ${SSE_CLIENTS} SSE clients, POST sent → last client p50 / p99`, o ? `${ms(o.postP50)} / ${ms(o.postP99)}` : "", "", ""],
    ["server RSS on an empty workspace (baseline, no index)", mb(f.baselineRss.rssKb), "", ""],
    ["server RSS after the full build and its save (peak)", `${mb(f.memoryAfterBuild.rssKb)} (${mb(f.memoryAfterBuild.peakKb)})`, "< 250 MB", check(f.memoryAfterBuild.rssKb / 1024, 250)],
    ["server RSS after restart + queries (peak)", `${mb(f.memoryAfterQueries.rssKb)} (${mb(f.memoryAfterQueries.peakKb)})`, "< 250 MB", check(f.memoryAfterQueries.rssKb / 1024, 250)],
    ...(f.memoryWithClients ? [[`server RSS with ${SSE_CLIENTS} SSE clients`, mb(f.memoryWithClients.rssKb), "", ""]] : []),
  ];
  return [
    "## Workspace: search index, watcher and stream",
    "",
    `Command: \`npm run bench:workspace\`. Machine: ${machine()}. Measured ${new Date().toISOString().slice(0, 10)}.`,
    `Workspace: ${FILES.toLocaleString("en")} generated markdown files, 1-3 KiB each (${(f.filesBytes / 2 ** 20).toFixed(1)} MiB, ${LEXICON.length.toLocaleString("en")}-word lexicon (${VOCABULARY.length} English words, the rest pronounceable made-up words) drawn with a Zipf distribution, seed 20261121; query words follow the same distribution without the 100 most common words). The server runs as a child process (\`node core/main.ts start\`, \`LOG_LEVEL=warn\`); every figure is taken from the bench process over 127.0.0.1 unless it says "in server" (the server's own \`stats.lastRefresh.durationMs\`). Queries are sequential, ${QUERIES} per kind after a warm-up, default \`limit\` 20.`,
    "",
    "| measure | result | target | |",
    "|---|---:|---:|---|",
    ...rows.map((r) => `| ${r.join(" | ")} |`),
    "",
    `Restart: ${f.restart.unchanged.toLocaleString("en")} files unchanged (size and mtime match the file index), ${f.restart.read} re-read. Queries that found something: 1-word ${f.oneWord.hits}/${QUERIES}, 3-word ${f.threeWord.hits}/${QUERIES}, typo ${f.typo.hits}/${QUERIES}.`,
    "",
    `Where the time goes (server's own phases): first build ${phases(f.buildStats)}; restart ${phases(f.restartStats)}` +
      (f.saveAfterBuild ? `; saving the built index to SQLite (after it already serves, in slices) ${ms(f.saveAfterBuild.durationMs)} for ${(f.saveAfterBuild.bytes / 2 ** 20).toFixed(1)} MiB.` : "."),
    "",
    `Method of the issue-15 rows. *Full build answered*: a fresh server (no saved index) is spawned; as soon as \`GET /api/health\` answers, \`POST /api/search\` is sent and timed to its answer; it shares the start-up build (the figure is that build, as the client sees it, from listening on). *API p99 while the build runs*: from the same moment until the built index is saved, the bench sends \`GET /api/health\` and \`GET /api/tasks\` alternately, one at a time, and times each (the re-index row does the same around a \`POST /api/search\` on the indexed server). *Restart*: the server is stopped and spawned again on the saved index; after health answers, searches are sent back to back: *listening to first search answered from the complete index* is from health answering to the first answer with \`stats.state: "ready"\` (the saved index decoded; the refresh of changed files may still run, \`indexing: true\`), and *spawn to first search answered* counts from the spawn, so it includes the host's cold start. RSS is read from \`/proc/<pid>/status\` 2 s after the first build's save.`,
    "",
    "Both builds of 10,000 files read, parse and index in the search plugin's builder process (a child process, docs/search.md): \"reading and tokenising\" is the time in that process, \"building/loading the index\" its final sort plus the server's decode of the result. The first start's build runs beside the watcher's initial scan of the same tree (6,000 of the files are in watched folders) and the other plugins' start, which share the server's one JavaScript thread; the re-index row is the same build alone. Queries: scoring runs over typed-array postings (no object per matching file); the 20 excerpts (read from the files when answering) and the HTTP layer are most of a query's time; the slowest are unknown words whose typo lookup walks the radix tree, and common words whose prefix expansions match thousands of files. Typo tolerance only expands words the index does not contain.",
    "",
    `Memory: the baseline row is the host alone (all built-in plugins), which is most of the server's RSS. The index keeps postings as int32 pairs in one typed array per segment, field lengths in an Int32Array and terms in a Map plus minisearch's radix tree (for typos only): about 20-45 MB of JS heap and 14 MB of blob for this workspace (in-process probe, 2026-11-24), against 116-120 MB of heap (80 MB of it minisearch's nested Maps of postings) and 577-686 MB RSS before. What remains above the baseline is the index, the file rows, the watcher and the SSE clients: what V8 keeps after the build's allocation (its young generation at its largest, the build's dead typed arrays; about 140 MB) is given back by a last-resort GC that the search plugin runs 1 s after a full build's save and after the start-up load when the build grew the young generation past 32 MB or the process by more than 64 MB, as this workspace's does (its builds run in a child process, whose garbage leaves with it; what remains is the decode of its result and the watcher's scan) (one event-loop pause of about 0.2-0.4 s, logged at info; skipped after a small build, since a memory-reducing GC leaves Node's request path on V8's slow paths, see the hot paths' third pass). That GC also shrinks the young generation to 1 MB, where V8 left it for 20 s and more under a request load (a minor GC every 2 MB allocated: 300 in 6 s of \`GET /api/health\` where 40 do otherwise, about a third fewer requests answered); so the release then grows it back to 16 MB at once (two held-and-collected rounds and a regular major GC, about 0.1 s; \`test/plugins/search/release-memory.test.ts\`). The write → SSE and fan-out rows measure the watcher and the stream plugin at its default configuration (client cap 1,100); the search plugin's part there is that a watcher change costs one row deletion, never a whole-index write. The fan-out rows time ${FANOUT_EVENTS} public events (\`POST /api/activities\`, 100 ms apart) to the last of the clients, raw sockets that only look for the event's marker in the bytes they receive (scripts/bench/workspace-fanout.ts; \`--fanout-only\` runs them alone against several checkouts): from the first client's receipt (issue 26's measure) and from the POST.`,
    "",
  ].join("\n");
}

function writeBenchmarks(section: string): string {
  const file = benchmarksFile();
  const start = "<!-- workspace:start -->";
  const end = "<!-- workspace:end -->";
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    text = "# Benchmarks\n";
  }
  const block = `${start}\n${section}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  text = i >= 0 && j > i ? `${text.slice(0, i)}${block}${text.slice(j + end.length)}` : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, text);
  return wroteTo(file, "the workspace section");
}

// ---------------------------------------------------------------- main

/** `--start-only`: the start rows alone, for the checkouts named on the command line (default: this one). */
async function startOnly(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), "muster-bench-ws-"));
  try {
    const workspace = join(tmp, "workspace");
    console.log(`generating ${FILES} files in ${workspace}`);
    generateWorkspace(workspace, FILES);
    const figures = await measureStarts(workspace, FILES, namedCheckouts(args, ROOT), Number(runsArg ?? START_RUNS));
    console.log(`\n${machine()}\n\n${renderStarts(figures)}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** `--fanout-only`: the fan-out row alone, on an empty workspace, for the checkouts named (default: this one). */
async function fanoutOnlyMain(): Promise<void> {
  const profileDir = args.includes("--profile") ? mkdtempSync(join(tmpdir(), "muster-bench-fanout-prof-")) : undefined;
  const client = (option("--client") ?? "raw") as FanoutClientKind;
  if (client !== "raw" && client !== "sse") throw new Error(`--client is raw or sse, not ${client}`);
  const table = await fanoutOnly({ checkouts: namedCheckouts(args, ROOT), runs: Number(runsArg ?? 2), clients: SSE_CLIENTS, events: FANOUT_EVENTS, client, profileDir });
  console.log(`\n${machine()}\n\n${table}`);
  if (profileDir) console.log(`\nprofiles kept in ${profileDir} (scripts/bench/profile-summary.ts summarises one)`);
}

async function main(): Promise<void> {
  if (START_ONLY) return startOnly();
  if (FANOUT_ONLY) return fanoutOnlyMain();
  const tmp = mkdtempSync(join(tmpdir(), "muster-bench-ws-"));
  const home = join(tmp, "home");
  const workspace = join(tmp, "workspace");
  const guard = setTimeout(() => {
    console.error("bench:workspace timed out");
    child?.kill("SIGKILL");
    rmSync(tmp, { recursive: true, force: true });
    process.exit(2);
  }, OVERALL_TIMEOUT_MS);
  const cleanup = () => {
    child?.kill("SIGKILL");
    rmSync(tmp, { recursive: true, force: true });
  };
  process.once("SIGINT", () => (cleanup(), process.exit(130)));
  try {
    mkdirSync(home, { recursive: true });
    // Generated before the first start, so the scaffolder sees an existing workspace.
    console.log(`generating ${FILES} files in ${workspace}`);
    const { bytes } = generateWorkspace(workspace, FILES);
    writeFileSync(
      join(home, "muster.config.json"),
      // The stream's default client cap (1,100) is what the fan-out row measures.
      JSON.stringify({ config: { stream: { pingIntervalMs: 600_000 }, search: { saveDelayMs: 1_000 } } }),
    );
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const env = { ...process.env, PORT: String(port), HOST: "127.0.0.1", MUSTER_HOME: home, WORKSPACE_DIR: workspace, LOG_LEVEL: "warn", NODE_ENV: "production" };

    console.log("baseline: the server on an empty workspace");
    const emptyHome = join(tmp, "empty-home");
    mkdirSync(join(emptyHome, "workspace"), { recursive: true });
    writeFileSync(join(emptyHome, "workspace", "README.md"), "# Empty\n");
    await startServer({ ...env, MUSTER_HOME: emptyHome, WORKSPACE_DIR: join(emptyHome, "workspace") });
    await waitIndex(performance.now());
    await sleep(1_000);
    const baselineRss = rssOf(child!.pid!);
    await stopServer();

    console.log("first start (full build), POST /api/search at once, API latency meanwhile");
    const first = await startServer(env);
    const buildPosted = performance.now();
    const post = http("POST", "/api/search").then((res) => ({ res, wallMs: performance.now() - buildPosted }));
    const apiDuringBuild = await apiLatencyWhile(post.then(() => waitSaved(undefined)));
    const posted = await post;
    if (posted.res.status !== 200) throw new Error(`POST /api/search answered ${posted.res.status}: ${JSON.stringify(posted.res.json)}`);
    const fullBuild = { wallMs: posted.wallMs, serverMs: posted.res.json.duration, files: posted.res.json.filesIndexed };
    const ready = await waitIndex(first.spawnedAt);
    const firstStart = { listeningMs: first.listeningMs, readyMs: ready.readyMs, buildMs: ready.stats.lastRefresh?.durationMs ?? NaN };
    const pid = child!.pid!;
    await sleep(2_000);
    const memoryAfterBuild = rssOf(pid);
    const saved = (await http("GET", "/api/search?q=agent&limit=1")).json.stats.lastSave;
    const saveAfterBuild = saved ? { durationMs: saved.durationMs, bytes: saved.bytes } : null;

    console.log("POST /api/search (full re-index), API latency meanwhile");
    const t0 = performance.now();
    const rePost = http("POST", "/api/search").then((res) => ({ res, wallMs: performance.now() - t0 }));
    const apiDuringReindex = await apiLatencyWhile(rePost.then(() => waitSaved(saved?.savedAt)));
    const re = await rePost;
    const reindex = { wallMs: re.wallMs, serverMs: re.res.json.duration, files: re.res.json.filesIndexed };

    console.log("restart with the persisted index");
    await stopServer();
    const second = await startServer(env);
    const firstAnswer = await waitIndex(second.spawnedAt, () => true);
    const complete = await waitIndex(second.spawnedAt, (stats) => stats.state === "ready");
    const reReady = await waitIndex(second.spawnedAt);
    const restart = {
      listeningMs: second.listeningMs,
      firstAnswerMs: firstAnswer.readyMs,
      completeMs: complete.readyMs,
      readyMs: reReady.readyMs,
      loadMs: reReady.stats.lastRefresh?.durationMs ?? NaN,
      read: reReady.stats.lastRefresh?.read ?? NaN,
      unchanged: reReady.stats.lastRefresh?.unchanged ?? NaN,
    };
    const pid2 = child!.pid!;

    console.log("queries");
    const random = rng(7);
    // Query words follow the same distribution without the ~100 most common (stop) words.
    const pick = () => LEXICON[zipf(random, LEXICON.length, 100)]!;
    const oneWord = await queryLatency(Array.from({ length: QUERIES }, pick));
    const threeWord = await queryLatency(Array.from({ length: QUERIES }, () => `${pick()} ${pick()} ${pick()}`));
    const typoOf = (w: string) => (w.length < 5 ? `${w}x` : `${w.slice(0, 2)}${w[3]}${w[2]}${w.slice(4)}`);
    const typo = await queryLatency(Array.from({ length: QUERIES }, () => typoOf(pick())));
    const memoryAfterQueries = rssOf(pid2);

    const figures: Figures = { filesBytes: bytes, baselineRss, buildStats: ready.stats.lastRefresh, restartStats: reReady.stats.lastRefresh, saveAfterBuild, firstStart, fullBuild, apiDuringBuild, reindex, apiDuringReindex, memoryAfterBuild, restart, oneWord, threeWord, typo, memoryAfterQueries, writeToEvent: { error: "pending" }, fanOut: { error: "pending" } };

    console.log("write -> SSE file_change");
    try {
      figures.writeToEvent = await writeToEvent(workspace);
    } catch (error) {
      figures.writeToEvent = { error: (error as Error).message };
    }
    console.log(`one event -> ${SSE_CLIENTS} SSE clients`);
    try {
      figures.fanOut = await fanOut(pid2, figures);
    } catch (error) {
      figures.fanOut = { error: (error as Error).message };
    }
    await stopServer();

    console.log(`issue 26's start rows, ${START_RUNS} runs`);
    const starts = renderStarts(await measureStarts(workspace, FILES, [["this checkout", ROOT]], START_RUNS));
    const section = `${render(figures)}\n\nIssue 26's start rows (from the spawn of \`node core/entry.js start\`, what \`npm start\` runs; scripts/bench/workspace-start.ts):\n\n${starts}`;
    console.log(`\n${section}`);
    console.log(writeBenchmarks(section));
  } finally {
    clearTimeout(guard);
    await stopServer().catch(() => undefined);
    agent.destroy();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  child?.kill("SIGKILL");
  process.exitCode = 1;
});
