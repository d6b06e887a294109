// How much JavaScript and CSS the console makes a cold browser download, for
// `npm run bench:console`: every `.js`/`.ts`/`.css` response under /dashboard/ as the browser
// receives it, gzip-compressed here per file (the server's own encoding, if it has one, is
// reported beside). One row per page loaded cold, and the whole console: one browser visiting
// every page the navigation lists.
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

/** Records the console files a context receives, by URL (a file loaded twice counts once). */
function recordFiles(context: BrowserContext, bodies: Map<string, Buffer>, encodings: Set<string>, lastArrival: { at: number }): void {
  context.on("response", async (response) => {
    const path = new URL(response.url()).pathname;
    if (!path.startsWith("/dashboard/") || !/\.(js|ts|css)$/.test(path)) return;
    lastArrival.at = Date.now();
    const encoding = response.headers()["content-encoding"];
    if (encoding) encodings.add(encoding);
    try {
      bodies.set(path, await response.body());
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
  const encodings = new Set<string>();
  const load = async (paths: string[]) => {
    const context = await browser.newContext();
    const bodies = new Map<string, Buffer>();
    const lastArrival = { at: Date.now() };
    recordFiles(context, bodies, encodings, lastArrival);
    try {
      const page = await context.newPage();
      for (const path of paths) await visit(page, `${base}${path}`, lastArrival, waitMs);
    } finally {
      await context.close();
    }
    return bodies;
  };
  const singles: BytesRow[] = [];
  singles.push(row("Home `/`, cold", await load(["/"])));
  singles.push(row("Board `/console/boards/{id}`, cold", await load([boardPath])));
  for (const page of listed.pages) singles.push(row(`${page.title} \`${page.path}\`, cold`, await load([page.path])));
  const heaviest = singles.reduce((a, b) => (b.gzip6 > a.gzip6 ? b : a));
  const all = row(`the whole console: home and all ${listed.pages.length} pages of the navigation, one browser`, await load(["/", boardPath, ...listed.pages.map((page) => page.path)]));
  return { rows: [singles[0]!, { ...heaviest, label: `the heaviest single page: ${heaviest.label}` }, all], encoded: [...encodings].join(", ") || undefined };
}
