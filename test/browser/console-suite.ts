// What a console browser suite sets up: one host and one browser for the suite (both closed
// after it), and pages opened signed in at a place and closed after their step.
import type { Test } from "uvu";
import type { Browser, Page } from "playwright-core";
import type { TestHost } from "../helpers/start-test-host.ts";
import { withBrowser } from "./browser.ts";
import { openConsole } from "./console.ts";

export interface ConsoleSuite {
  host(): TestHost;
  /** Opens `path` signed in, runs `fn`, closes the page whatever happens. */
  withPage(path: string, fn: (page: Page) => Promise<void>, viewport?: { width: number; height: number }): Promise<void>;
}

/** Registers the suite's before/after: `start` gives the host and `stop` ends it. */
export function consoleSuite(t: Test, start: () => Promise<{ host: TestHost; stop: () => Promise<void> }>): ConsoleSuite {
  let started: { host: TestHost; stop: () => Promise<void> } | undefined;
  let browser: Browser;
  let closeBrowser: () => void;
  let browserClosed: Promise<unknown>;
  t.before(async () => {
    started = await start();
    await new Promise<void>((ready) => {
      browserClosed = withBrowser((b) => {
        browser = b;
        ready();
        return new Promise<void>((release) => (closeBrowser = release));
      });
    });
  });
  t.after(async () => {
    closeBrowser?.();
    await browserClosed;
    await started?.stop();
  });
  return {
    host: () => started!.host,
    async withPage(path, fn, viewport) {
      const page = await openConsole(browser, started!.host, path, viewport);
      try {
        await fn(page);
      } finally {
        await page.close();
      }
    },
  };
}
