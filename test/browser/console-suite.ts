// What the console's browser suites share: one browser for the whole suite (opened in `before`,
// closed in `after`), a page opened signed in at a place and always closed, and the checks every
// page gets (agent-written markup stayed text; nothing wider than the screen); or the whole
// set-up at once: one host and one browser for the suite (consoleSuite).
import * as assert from "uvu/assert";
import type { Test } from "uvu";
import type { Browser, Page } from "playwright-core";
import type { TestHost } from "../helpers/start-test-host.ts";
import { withBrowser } from "./browser.ts";
import { openConsole } from "./console.ts";

export interface SuiteBrowser {
  readonly browser: Browser;
  /** Starts the browser (call in `before`). */
  open(): Promise<void>;
  /** Closes it (call in `after`). */
  close(): Promise<void>;
}

export function suiteBrowser(): SuiteBrowser {
  let browser: Browser | undefined;
  let release: (() => void) | undefined;
  let closed: Promise<unknown> | undefined;
  return {
    get browser() {
      if (!browser) throw new Error("the suite's browser is not open (call open() in before)");
      return browser;
    },
    open: () =>
      new Promise<void>((ready) => {
        closed = withBrowser((b) => {
          browser = b;
          ready();
          return new Promise<void>((done) => (release = done));
        });
      }),
    async close() {
      release?.();
      await closed;
    },
  };
}

/** Opens `path` signed in on `h`, runs `fn`, and always closes the page. */
export async function withConsolePage(browser: Browser, h: TestHost, path: string, fn: (page: Page) => Promise<void>, viewport?: { width: number; height: number }): Promise<void> {
  const page = await openConsole(browser, h, path, viewport);
  try {
    await fn(page);
  } finally {
    await page.close();
  }
}

/** The XSS strings the suites plant (`<img src=x onerror="window.__xss=1">`) stayed text. */
export async function assertNoXss(page: Page): Promise<void> {
  assert.is(await page.evaluate("window.__xss"), undefined, "no planted script ran");
  assert.is(await page.locator("img[src='x']").count(), 0, "no planted element was created");
}

/** The page does not scroll sideways (the 390 px check). */
export async function assertFitsWidth(page: Page): Promise<void> {
  assert.ok(await page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), "no horizontal scroll of the page");
}

export interface ConsoleSuite {
  host(): TestHost;
  /** Opens `path` signed in, runs `fn`, closes the page whatever happens. */
  withPage(path: string, fn: (page: Page) => Promise<void>, viewport?: { width: number; height: number }): Promise<void>;
}

/** Registers the suite's before/after: `start` gives the host and its stop; one browser for the suite. */
export function consoleSuite(t: Test, start: () => Promise<{ host: TestHost; stop: () => Promise<void> }>): ConsoleSuite {
  let started: { host: TestHost; stop: () => Promise<void> } | undefined;
  const shared = suiteBrowser();
  t.before(async () => {
    started = await start();
    await shared.open();
  });
  t.after(async () => {
    await shared.close();
    await started?.stop();
  });
  return {
    host: () => started!.host,
    withPage: (path, fn, viewport) => withConsolePage(shared.browser, started!.host, path, fn, viewport),
  };
}

/** The agent-written string the suites plant: it must show as text and never run. */
export const XSS = `<img src=x onerror="window.__xss=1">`;

export interface StartedSuiteBrowser {
  /** Opens `path` signed in on `h`, runs `fn`, and closes the page whatever happens. */
  withPage(h: TestHost, path: string, fn: (page: Page) => Promise<void>, viewport?: { width: number; height: number }): Promise<void>;
  close(): Promise<void>;
}

/** Starts one browser for a suite (call in `before`, `close()` in `after`). */
export async function startSuiteBrowser(): Promise<StartedSuiteBrowser> {
  const shared = suiteBrowser();
  await shared.open();
  return {
    withPage: (h, path, fn, viewport) => withConsolePage(shared.browser, h, path, fn, viewport),
    close: () => shared.close(),
  };
}
