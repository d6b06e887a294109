// The console's speed targets (issue 24), in a real headless Chromium against the real server
// (a child process, fresh home) holding 10,000 tasks, one board of 1,000 cards and 50,000
// activities:
//   - first meaningful render of each page (navigation start → the page's data drawn), < 1 s;
//   - a card moved (PATCH /api/cards/{id}) shows in its new column on a second open browser
//     within 200 ms p99 (from the request sent to the moved card drawn, one clock);
//   - the console's JavaScript and CSS as the browser loads them on every page, gzip -9, ≤ 150 KB.
// Prints the figures and writes the console section of the benchmarks page.
//   npm run bench:console [-- --record]   (BENCH_ROUNDS=<n> page loads per page, default 5;
//                                          BENCH_MOVES=<n> card moves, default 100)
import { gzipSync } from "node:zlib";
import { availableParallelism, loadavg, platform, release, totalmem } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { cleanupAll, freePort, removeTempDir, startServer, stopServer, tempDir } from "./processes.ts";
import { median } from "./report.ts";
import { benchmarksFile, writeMarkedSection, wroteTo } from "./output.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TASKS = Number(process.env.BENCH_TASKS ?? 10_000);
const CARDS = Number(process.env.BENCH_CARDS ?? 1_000);
const ACTIVITIES = Number(process.env.BENCH_ACTIVITIES ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MOVES = Number(process.env.BENCH_MOVES ?? 100);
const CONCURRENCY = 25;
const HARD_LIMIT_MS = 900_000;

const hardLimit = setTimeout(() => {
  console.error(`bench:console: aborted after ${HARD_LIMIT_MS / 1000} s`);
  cleanupAll();
  process.exit(1);
}, HARD_LIMIT_MS);
hardLimit.unref();
const log = (message: string) => console.error(`[bench:console] ${message}`);

/** A page and what "its data is drawn" means there (a selector that exists only once the data is). */
interface Place { label: string; path: string; drawn: string }

async function inBatches(count: number, make: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < count; i += CONCURRENCY) await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count - i) }, (_, j) => make(i + j)));
}

async function seed(base: string): Promise<{ boardId: string; cardIds: string[]; columns: string[] }> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-agent-id": "bench" }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<Record<string, any>>;
  };
  log(`seeding ${TASKS} tasks`);
  await inBatches(TASKS, (i) => post("/api/tasks", { title: `Task ${i + 1}`, status: ["backlog", "in_progress", "review", "done"][i % 4], priority: "medium" }));
  log(`seeding a board of ${CARDS} cards`);
  const columns = ["todo", "doing", "done"];
  const board = (await post("/api/boards", { name: "Bench board", columns: columns.map((id) => ({ id, name: id })) })).board as { id: string };
  const cardIds: string[] = [];
  await inBatches(CARDS, async (i) => cardIds.push(((await post(`/api/boards/${board.id}/cards`, { title: `Card ${i + 1}`, column: columns[i % 2] })).card as { id: string }).id));
  log(`seeding ${ACTIVITIES} activities`);
  await inBatches(ACTIVITIES, (i) => post("/api/activities", { agentId: `agent-${i % 9}`, action: "bench.step", target: `file-${i}.md`, details: "A seeded activity" }));
  return { boardId: board.id, cardIds, columns };
}

/** Milliseconds from navigation start to `place.drawn` in a fresh context (no cache, as a first visit). */
async function firstRender(browser: Browser, base: string, place: Place): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  try {
    const page = await context.newPage();
    await page.goto(`${base}${place.path}`, { waitUntil: "commit" });
    await page.waitForSelector(place.drawn, { timeout: 30_000 });
    return (await page.evaluate("performance.now()")) as number;
  } finally {
    await context.close();
  }
}

/** The gzip -9 size of every JS and CSS file the console loads on its home and the given pages. */
async function consoleBytes(browser: Browser, base: string, places: Place[]): Promise<{ files: number; raw: number; gzip: number }> {
  const context = await browser.newContext();
  const bodies = new Map<string, Buffer>();
  const page = await context.newPage();
  page.on("response", async (response) => {
    const type = response.headers()["content-type"] ?? "";
    if (!/javascript|css/.test(type) || !new URL(response.url()).pathname.startsWith("/dashboard/")) return;
    try { bodies.set(response.url(), await response.body()); } catch { /* navigated away */ }
  });
  for (const place of places) {
    await page.goto(`${base}${place.path}`);
    await page.waitForSelector(place.drawn, { timeout: 30_000 });
    await page.waitForLoadState("networkidle");
  }
  await context.close();
  let raw = 0;
  let gzip = 0;
  for (const body of bodies.values()) {
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { files: bodies.size, raw, gzip };
}

/** Moves cards by the API while a second browser shows the board; ms from request sent to the card drawn in its new column. */
async function moveLatencies(browser: Browser, base: string, boardPath: string, cardIds: string[], columns: string[]): Promise<number[]> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const watcher: Page = await context.newPage();
  await watcher.goto(`${base}${boardPath}`);
  await watcher.waitForSelector("[data-card-id]", { timeout: 60_000 });
  await watcher.waitForFunction(`document.getElementById("live-state")?.textContent === "Live"`);
  const latencies: number[] = [];
  for (let i = 0; i < MOVES; i++) {
    // Cards drawn on the first screen of their column, so the move is visible without scrolling.
    const id = cardIds[i % 20]!;
    const current = (await (await fetch(`${base}/api/cards/${id}`)).json()) as { card?: { column: string }; column?: string };
    const from = current.card?.column ?? current.column;
    const to = columns.find((column) => column !== from)!;
    // A string: it runs in the page, and this program is type-checked without the DOM library.
    const seen = watcher.waitForFunction(
      `document.querySelector('[data-card-id="${id}"]')?.closest("[data-column-id]")?.getAttribute("data-column-id") === ${JSON.stringify(to)} ? Date.now() : false`,
      undefined,
      { polling: "raf", timeout: 30_000 },
    );
    const sent = Date.now();
    const res = await fetch(`${base}/api/cards/${id}`, { method: "PATCH", headers: { "content-type": "application/json", "x-agent-id": "bench" }, body: JSON.stringify({ column: to }) });
    if (!res.ok) throw new Error(`PATCH /api/cards/${id} answered ${res.status}: ${await res.text()}`);
    latencies.push(((await (await seen).jsonValue()) as number) - sent);
  }
  await context.close();
  return latencies;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0]!;
  const home = tempDir("muster-bench-console-");
  const port = await freePort();
  const server = await startServer({ name: "muster", args: ["core/entry.js", "start"], env: { PORT: String(port), MUSTER_HOME: home, WORKSPACE_DIR: join(home, "ws"), LOG_LEVEL: "warn" }, port, cwd: ROOT, timeoutMs: 60_000 });
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  try {
    const { boardId, cardIds, columns } = await seed(base);
    const places: Place[] = [
      { label: "Home (`/`, 50,000 activities)", path: "/", drawn: "#feed-list li" },
      { label: `Tasks (\`/console/tasks\`, ${TASKS.toLocaleString("en-US")} tasks)`, path: "/console/tasks", drawn: "main table tbody tr" },
      { label: `Board (\`/console/boards/{id}\`, ${CARDS.toLocaleString("en-US")} cards)`, path: `/console/boards/${boardId}`, drawn: "[data-card-id]" },
      { label: "Approvals (`/console/approvals`)", path: "/console/approvals", drawn: "main h1 ~ *, main .page section" },
    ];
    const renders = new Map<string, number[]>(places.map((place) => [place.label, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const place of places) renders.get(place.label)!.push(await firstRender(browser, base, place));
      log(`round ${round}: ${places.map((place) => `${place.path} ${Math.round(renders.get(place.label)!.at(-1)!)} ms`).join(", ")}`);
    }
    log(`${MOVES} card moves watched by a second browser`);
    const moves = await moveLatencies(browser, base, `/console/boards/${boardId}`, cardIds, columns);
    const size = await consoleBytes(browser, base, places);
    const loadAfter = loadavg()[0]!;

    const lines = [
      "## Console (`npm run bench:console`, issue 24)",
      "",
      `Command: \`npm run bench:console\`. Machine: ${platform()} ${release()}, ${availableParallelism()} CPUs, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, Debian's Chromium (headless). Measured ${new Date().toISOString()}; 1-minute load ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end.`,
      "",
      `Server: the real one (\`core/entry.js start\`, fresh home) holding ${TASKS.toLocaleString("en-US")} tasks, one board of ${CARDS.toLocaleString("en-US")} cards and ${ACTIVITIES.toLocaleString("en-US")} activities, all created through the API. Each page load is a fresh browser context (nothing cached; the server sends \`Cache-Control: no-store\` anyway), timed from navigation start to the page's data drawn (the selector in \`scripts/bench/console.ts\`), ${ROUNDS} loads per page.`,
      "",
      "| measure | median | worst | target |",
      "|---|---|---|---|",
      ...places.map((place) => {
        const values = renders.get(place.label)!;
        return `| first render: ${place.label} | ${Math.round(median(values))} ms | ${Math.round(Math.max(...values))} ms | < 1,000 ms |`;
      }),
      `| card moved → drawn on a second browser (${MOVES} moves) | p50 ${Math.round(percentile(moves, 50))} ms | p99 ${Math.round(percentile(moves, 99))} ms | p99 < 200 ms |`,
      `| console JS + CSS loaded on these pages (${size.files} files, ${Math.round(size.raw / 1024)} KB raw) | ${(size.gzip / 1024).toFixed(1)} KB gzip -9 | | ≤ 150 KB |`,
    ];
    const markdown = lines.join("\n");
    console.log(markdown);
    const file = benchmarksFile();
    writeMarkedSection(file, "console", markdown);
    console.log(wroteTo(file, "the console section"));
  } finally {
    await browser.close();
    await stopServer(server.child);
    removeTempDir(home);
  }
}

try {
  await main();
} catch (error) {
  console.error(`bench:console failed: ${error instanceof Error ? error.stack : String(error)}`);
  cleanupAll();
  process.exitCode = 1;
}
