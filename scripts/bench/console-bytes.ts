// How much JavaScript and CSS the console makes a cold browser download, for
// `npm run bench:console`: every `.js`/`.ts`/`.css` response under /dashboard/ as the browser
// receives it, gzip-compressed here per file (the server's own encoding, if it has one, is
// reported beside): home, the heaviest page loaded cold, and the whole console (every page the
// navigation lists, each file counted once).
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext, Page } from "playwright-core";

export interface BytesRow { label: string; files: number; raw: number; gzip6: number; gzip9: number }
export interface ConsoleBytes {
  rows: BytesRow[];
  /** The Content-Encoding the server sent these files with, if any. */
  encoded: string | undefined;
}

/** Quiet time after the last console file arrived before a page counts as loaded. */
const QUIET_MS = 1_500;

/** Hands over every console file a context receives, with its path. */
function recordFiles(context: BrowserContext, keep: (path: string, body: Buffer) => void, encodings: Set<string>, lastArrival: { at: number }): void {
  context.on("response", async (response) => {
    const path = new URL(response.url()).pathname;
    if (!path.startsWith("/dashboard/") || !/\.(js|ts|css)$/.test(path)) return;
    lastArrival.at = Date.now();
    const encoding = response.headers()["content-encoding"];
    if (encoding) encodings.add(encoding);
    try {
      keep(path, await response.body());
    } catch {
      /* the page moved on before the body was read: counted on the next visit */
    }
  });
}

async function visit(page: Page, url: string, lastArrival: { at: number }, waitMs: number): Promise<void> {
  await page.goto(url, { timeout: waitMs });
  await page.waitForSelector("body[data-ready='true']", { timeout: waitMs });
  const deadline = Date.now() + waitMs;
  while (Date.now() - lastArrival.at < QUIET_MS && Date.now() < deadline) await page.waitForTimeout(250);
}

function row(label: string, bodies: Map<string, Buffer>): BytesRow {
  const sum = (size: (body: Buffer) => number) => [...bodies.values()].reduce((total, body) => total + size(body), 0);
  return {
    label,
    files: bodies.size,
    raw: sum((body) => body.length),
    gzip6: sum((body) => gzipSync(body, { level: 6 }).length),
    gzip9: sum((body) => gzipSync(body, { level: 9 }).length),
  };
}

export async function consoleBytes(browser: Browser, base: string, boardPath: string, waitMs: number): Promise<ConsoleBytes> {
  const listed = (await (await fetch(`${base}/dashboard/pages`)).json()) as { pages: { id: string; title: string; path: string }[] };
  const places = [{ label: "Home `/`", path: "/" }, { label: "Board `/console/boards/{id}`", path: boardPath }, ...listed.pages.map((page) => ({ label: `${page.title} \`${page.path}\``, path: page.path }))];
  const encodings = new Set<string>();
  const everything = new Map<string, Buffer>();
  const singles: BytesRow[] = [];
  const context = await browser.newContext();
  try {
    // One browser, one page after another: each navigation is a new document whose modules are
    // fetched again (the server sends no-store, nothing is cached), so each is a cold load.
    let current = new Map<string, Buffer>();
    const lastArrival = { at: Date.now() };
    recordFiles(context, (path, body) => {
      current.set(path, body);
      everything.set(path, body);
    }, encodings, lastArrival);
    const page = await context.newPage();
    for (const place of places) {
      current = new Map();
      await visit(page, `${base}${place.path}`, lastArrival, waitMs);
      singles.push(row(`${place.label}, cold`, current));
    }
  } finally {
    await context.close();
  }
  const heaviest = singles.reduce((a, b) => (b.gzip6 > a.gzip6 ? b : a));
  const all = row(`the whole console: home and all ${listed.pages.length} pages of the navigation, every file once`, everything);
  return { rows: [singles[0]!, { ...heaviest, label: `the heaviest single page: ${heaviest.label}` }, all], encoded: [...encodings].join(", ") || undefined };
}
