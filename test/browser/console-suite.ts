// What every console browser suite repeats: one Chromium kept open for the whole suite, a
// signed-in page per test that is always closed, and the check that agent-written XSS strings
// stayed text.
import * as assert from "uvu/assert";
import type { Browser, Page } from "playwright-core";
import type { TestHost } from "../helpers/start-test-host.ts";
import { withBrowser } from "./browser.ts";
import { openConsole } from "./console.ts";

/** The agent-written string every suite plants: it must show as text and never run. */
export const XSS = `<img src=x onerror="window.__xss=1">`;

export interface SuiteBrowser {
  /** Opens `path` signed in on `h`, runs `fn`, and closes the page whatever happens. */
  withPage(h: TestHost, path: string, fn: (page: Page) => Promise<void>, viewport?: { width: number; height: number }): Promise<void>;
  close(): Promise<void>;
}

/** Starts one browser for a suite (call in `before`, `close()` in `after`). */
export async function startSuiteBrowser(): Promise<SuiteBrowser> {
  let browser!: Browser;
  let release!: () => void;
  let closed!: Promise<unknown>;
  await new Promise<void>((ready) => {
    closed = withBrowser((b) => {
      browser = b;
      ready();
      return new Promise<void>((done) => (release = done));
    });
  });
  return {
    async withPage(h, path, fn, viewport) {
      const page = await openConsole(browser, h, path, viewport);
      try {
        await fn(page);
      } finally {
        await page.close();
      }
    },
    async close() {
      release();
      await closed;
    },
  };
}

/** The planted XSS strings were drawn as text: nothing ran and no image element exists. */
export async function assertNoXss(page: Page): Promise<void> {
  assert.is(await page.evaluate("window.__xss"), undefined);
  assert.is(await page.locator("img[src=x]").count(), 0);
}
