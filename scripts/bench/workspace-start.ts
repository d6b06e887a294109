// The two start rows of issue 26 on the bench's 10,000-file workspace, from the spawn of what
// `npm start` runs (`node core/entry.js start`, the start-up bundle when it is built):
//   - first start with the existing workspace (a new home: no database, no saved index) →
//     the first 200 on GET /api/health;
//   - restart on that home once its index is built and saved → the first GET /api/search
//     that finds a known word.
// Each is taken `runs` times per checkout (the order of the checkouts flips each run, so a
// load that changes over time weighs on both), with the main thread's CPU time at that moment
// (steadier than wall time on a shared machine). Used by workspace.ts.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, mainThreadCpuMs, removeTempDir } from "./processes.ts";

export interface StartRun {
  /** Spawn → first 200 on /api/health (first start, new home). */
  healthMs: number;
  healthCpuMs: number;
  /** The first start's health answer said the watcher was still scanning (field absent before issue 26). */
  scanning: boolean | null;
  /** Spawn → first search that finds the known word (restart on the saved index). */
  foundMs: number;
  foundCpuMs: number;
}

export interface StartFigures {
  runs: Map<string, StartRun[]>;
  word: string;
  /** Files in the workspace. */
  files: number;
  load: { before: string; after: string };
}

const LIMIT_MS = 180_000;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

function get(port: number, path: string): Promise<{ status: number; json: any }> {
  return new Promise((done) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { connection: "close" } }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => {
        try {
          done({ status: res.statusCode ?? 0, json: JSON.parse(text) });
        } catch {
          done({ status: res.statusCode ?? 0, json: undefined });
        }
      });
    });
    req.on("error", () => done({ status: 0, json: undefined }));
    req.end();
  });
}

/** Polls `path` every 5 ms until `done(answer)`; returns ms since `since` and the main thread's CPU then. */
async function until(child: ChildProcess, port: number, path: string, since: number, done: (a: { status: number; json: any }) => boolean) {
  while (performance.now() - since < LIMIT_MS) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) while waiting for ${path}`);
    const answer = await get(port, path);
    if (done(answer)) return { ms: performance.now() - since, cpuMs: mainThreadCpuMs(child.pid!), answer };
    await pause(5);
  }
  throw new Error(`no answer to ${path} within ${LIMIT_MS} ms`);
}

async function withServer<T>(checkout: string, home: string, workspace: string, fn: (child: ChildProcess, port: number, spawnedAt: number) => Promise<T>): Promise<T> {
  const port = await freePort();
  const spawnedAt = performance.now();
  const child = spawn(join(checkout, "node_modules/.bin/node"), ["core/entry.js", "start"], {
    cwd: checkout,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", MUSTER_HOME: home, WORKSPACE_DIR: workspace, LOG_LEVEL: "warn", NODE_ENV: "production", GATEWAY_URL: "off" },
    stdio: ["ignore", "ignore", "ignore"],
  });
  const exited = new Promise((r) => child.once("exit", r));
  try {
    return await fn(child, port, spawnedAt);
  } finally {
    if (child.exitCode === null) child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(killer);
  }
}

/** A word of the workspace's first file (its longest): any index of the workspace finds it. */
export function knownWord(workspace: string): string {
  const folder = join(workspace, "memory", "g0");
  const text = readFileSync(join(folder, readdirSync(folder).sort()[0]!), "utf8");
  return text.split(/[^a-z]+/).sort((a, b) => b.length - a.length)[0]!;
}

async function startRun(checkout: string, workspace: string, word: string): Promise<StartRun> {
  const home = mkdtempSync(join(tmpdir(), "muster-bench-start-"));
  try {
    writeFileSync(join(home, "muster.config.json"), JSON.stringify({ config: { search: { saveDelayMs: 1_000 } } }));
    const first = await withServer(checkout, home, workspace, async (child, port, spawnedAt) => {
      const health = await until(child, port, "/api/health", spawnedAt, (a) => a.status === 200);
      // The restart below needs the saved index: the first build ends with its save.
      await until(child, port, "/api/search?q=zz&limit=1", spawnedAt, (a) => a.status === 200 && a.json.stats?.indexing === false && a.json.stats?.lastSave != null);
      const watcher = health.answer.json?.watcher;
      return { healthMs: health.ms, healthCpuMs: health.cpuMs, scanning: watcher === undefined ? null : watcher === "scanning" };
    });
    const found = await withServer(checkout, home, workspace, (child, port, spawnedAt) =>
      until(child, port, `/api/search?q=${encodeURIComponent(word)}&limit=1`, spawnedAt, (a) => a.status === 200 && a.json.results?.length > 0),
    );
    return { ...first, foundMs: found.ms, foundCpuMs: found.cpuMs };
  } finally {
    removeTempDir(home);
  }
}

/** `runs` of both rows per checkout (`[name, directory]`, each with its node_modules and start-up bundle). */
export async function measureStarts(workspace: string, files: number, checkouts: (readonly [string, string])[], runs: number, log: (line: string) => void = console.log): Promise<StartFigures> {
  const word = knownWord(workspace);
  const figures: StartFigures = { runs: new Map(checkouts.map(([name]) => [name, []])), word, files, load: { before: loadAverage(), after: "" } };
  for (let run = 0; run < runs; run++) {
    for (const [name, dir] of run % 2 ? [...checkouts].reverse() : checkouts) {
      const result = await startRun(dir, workspace, word);
      figures.runs.get(name)!.push(result);
      log(`${name}: health ${Math.round(result.healthMs)} ms (main-thread CPU ${result.healthCpuMs} ms, scanning ${result.scanning}), restart → "${word}" found ${Math.round(result.foundMs)} ms (CPU ${result.foundCpuMs} ms)`);
    }
  }
  figures.load.after = loadAverage();
  return figures;
}

export const median = (values: number[]) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[sorted.length >> 1]!) : NaN;
};

/** One markdown row per checkout and measure: medians, with the range. */
export function renderStarts(f: StartFigures): string {
  const rows = [`| checkout | first start, ${f.files.toLocaleString("en")}-file workspace: spawn → health (median, range) | main-thread CPU by then | restart on the saved index: spawn → known word found | main-thread CPU by then | runs |`, "|---|---:|---:|---:|---:|---:|"];
  for (const [name, runs] of f.runs) {
    const range = (v: number[]) => `${Math.round(Math.min(...v))}-${Math.round(Math.max(...v))}`;
    const health = runs.map((r) => r.healthMs);
    const found = runs.map((r) => r.foundMs);
    rows.push(`| ${name} | ${median(health)} ms (${range(health)}) | ${median(runs.map((r) => r.healthCpuMs))} ms | ${median(found)} ms (${range(found)}) | ${median(runs.map((r) => r.foundCpuMs))} ms | ${runs.length} |`);
  }
  return `${rows.join("\n")}\n\nKnown word: "${f.word}". Load average (1, 5, 15 min) ${f.load.before} at the start, ${f.load.after} at the end.`;
}
