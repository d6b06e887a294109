// `npm run bench:rag`: semantic search quality and speed (issue 15). Writes a workspace of
// the labelled topics (scripts/bench/rag-queries.ts, one answer file per query) plus
// generated distractor files, runs the real server as a child process, and measures from
// here over 127.0.0.1: recall@5 of the labelled queries per provider and ranking mode
// (hybrid, vector only, full text only), indexing chunks/s, and GET /api/memory/rag p99
// while a forced re-index runs. Prints the figures as JSON. Bounded in time; removes its temp
// directory and stops the child on every exit path.
// Short run while developing: BENCH_RAG_FILES=200 BENCH_RAG_QUERIES=50 npm run bench:rag
// (add BENCH_RAG_VECTOR_CACHE=<converted .wv file> to skip the word-vector conversion)
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { cleanupAll, freePort, removeTempDir, startServer, stopServer, tempDir, type RunningServer } from "./processes.ts";
import { TOPICS } from "./rag-queries.ts";
import { LEXICON, rng, zipf } from "./workspace-corpus.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const DISTRACTORS = Number(process.env.BENCH_RAG_FILES ?? 2_000);
const LATENCY_QUERIES = Number(process.env.BENCH_RAG_QUERIES ?? 300);
const PROVIDERS = (process.env.BENCH_RAG_PROVIDERS ?? "hash,local").split(",");
const OVERALL_TIMEOUT_MS = 15 * 60_000;

let server: RunningServer | undefined;
let base = "";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function http(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${base}${path}`, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(120_000) });
  return { status: res.status, json: await res.json() };
}

function writeWorkspace(root: string): void {
  for (const t of TOPICS) {
    mkdirSync(dirname(join(root, t.path)), { recursive: true });
    writeFileSync(join(root, t.path), `# ${t.path.split("/").pop()!.replace(".md", "").replace(/-/g, " ")}\n\n${t.doc}\n`);
  }
  // Distractors: Zipf-drawn words in headed sections, 200-600 words each, so chunking and
  // ranking work on realistic amounts of unrelated text.
  const random = rng(20261124);
  mkdirSync(join(root, "notes"), { recursive: true });
  for (let i = 0; i < DISTRACTORS; i++) {
    const sections = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, s) => `## Section ${s}\n\n${Array.from({ length: 150 + Math.floor(random() * 100) }, () => LEXICON[zipf(random, LEXICON.length)]).join(" ")}\n`);
    writeFileSync(join(root, "notes", `note-${i}.md`), `# Note ${i}\n\n${sections.join("\n")}`);
  }
}

/** Waits for the current indexing to finish: every file indexed under the provider, nothing dirty. */
async function waitIndexed(): Promise<any> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const a = (await http("GET", "/api/memory/config")).json.agents[0];
    if (!a.dirty && a.indexed === a.total && a.total > 0) return a;
    if (Date.now() > deadline) throw new Error(`indexing did not finish: ${JSON.stringify(a)}`);
    await sleep(100);
  }
}

async function recall(mode: string): Promise<number> {
  let hits = 0;
  for (const t of TOPICS) {
    const res = await http("GET", `/api/memory/rag?q=${encodeURIComponent(t.query)}&limit=5&mode=${mode}`);
    if (res.json.results?.some((r: { path: string }) => r.path === t.path)) hits++;
  }
  return hits / TOPICS.length;
}

const p = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function benchProvider(provider: string): Promise<Record<string, unknown>> {
  const cfg = await http("GET", "/api/memory/config");
  if (cfg.status !== 200) throw new Error(`GET /api/memory/config: ${JSON.stringify(cfg.json)}`);
  const providers = cfg.json.providers;
  const info = providers.find((x: { id: string }) => x.id === provider);
  if (!info?.available) return { provider, skipped: info?.reason ?? "unknown provider" };
  const started = performance.now();
  const set = await http("POST", "/api/memory/config", { provider, enabled: true });
  if (set.status !== 200) return { provider, skipped: JSON.stringify(set.json) };
  await waitIndexed();
  // The first build includes the provider's one-off start (for `local`: converting the word
  // vectors into its cache); the throughput is timed on a forced re-index of everything.
  const firstIndexSeconds = (performance.now() - started) / 1000;
  const reindexStarted = performance.now();
  await http("POST", "/api/memory/rag", { force: true });
  const indexed = await waitIndexed();
  const indexSeconds = (performance.now() - reindexStarted) / 1000;
  const result: Record<string, unknown> = {
    provider,
    files: indexed.total,
    chunks: indexed.chunks,
    firstIndexSeconds: Math.round(firstIndexSeconds * 100) / 100,
    indexSeconds: Math.round(indexSeconds * 100) / 100,
    chunksPerSecond: Math.round(indexed.chunks / indexSeconds),
    recallAt5: { hybrid: await recall("hybrid"), vector: await recall("vector"), fulltext: await recall("fulltext") },
  };
  // API latency while a forced re-index of everything runs.
  await http("POST", "/api/memory/rag", { force: true });
  const times: number[] = [];
  for (let i = 0; i < LATENCY_QUERIES; i++) {
    const t = TOPICS[i % TOPICS.length]!;
    const t0 = performance.now();
    await http("GET", `/api/memory/rag?q=${encodeURIComponent(t.query)}&limit=10`);
    times.push(performance.now() - t0);
  }
  const stillIndexing = (await http("GET", "/api/memory/config")).json.agents[0].dirty;
  times.sort((a, b) => a - b);
  result.whileIndexing = { queries: times.length, slowestMs: times.slice(-3).map((x) => Math.round(x)), p50ms: Math.round(p(times, 0.5) * 10) / 10, p99ms: Math.round(p(times, 0.99) * 10) / 10, indexingStillRunningAtEnd: stillIndexing };
  await waitIndexed();
  return result;
}

async function main(): Promise<void> {
  const dir = tempDir("muster-bench-rag-");
  const overall = setTimeout(() => {
    console.error("bench:rag timed out");
    cleanupAll();
    process.exit(1);
  }, OVERALL_TIMEOUT_MS);
  try {
    const workspace = join(dir, "workspace");
    writeWorkspace(workspace);
    // Development runs may reuse a converted word-vector cache (skips the 4-6 s conversion,
    // so firstIndexSeconds then excludes it): BENCH_RAG_VECTOR_CACHE=<path of a .wv file>.
    const reuse = process.env.BENCH_RAG_VECTOR_CACHE;
    if (reuse) {
      mkdirSync(join(dir, "home", "cache", "rag"), { recursive: true });
      copyFileSync(reuse, join(dir, "home", "cache", "rag", basename(reuse)));
    }
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startServer({
      name: "muster",
      args: ["--conditions=source", "--import", "tsx", "core/main.ts", "start"],
      env: { PORT: String(port), HOST: "127.0.0.1", MUSTER_HOME: join(dir, "home"), WORKSPACE_DIR: workspace, LOG_LEVEL: "warn", NODE_ENV: "production" },
      port,
      cwd: ROOT,
      timeoutMs: 60_000,
    });
    // Let the full-text index finish its start-up load so hybrid ranks see every file.
    for (let i = 0; i < 600; i++) {
      const s = await http("GET", "/api/search?q=note&limit=1");
      if (s.json?.stats?.state === "ready" || s.json?.stats?.indexing === false) break;
      await sleep(100);
    }
    const results = [];
    for (const provider of PROVIDERS) results.push(await benchProvider(provider));
    console.log(JSON.stringify({ labelledQueries: TOPICS.length, distractorFiles: DISTRACTORS, results }, null, 2));
  } finally {
    clearTimeout(overall);
    if (server) await stopServer(server.child);
    removeTempDir(dir);
  }
}

await main();
