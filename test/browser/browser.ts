// Drives Debian's chromium through playwright-core (never a downloaded browser) against a
// real test host, signed in through a real one-time login link.
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import type { TestHost } from "../helpers/start-test-host.ts";
import { scaled } from "../helpers/time-scale.ts";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Whether the browser exists; when it does not, the suite fails with this message instead of skipping quietly. */
export function chromiumMissing(): string | null {
  return existsSync(CHROMIUM) ? null : `FAILED: no chromium at ${CHROMIUM}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH; the dashboard tests need a real browser.`;
}

/** Runs `fn` with a fresh headless browser, always closed afterwards. */
export async function withBrowser<T>(fn: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: 30_000 });
  try {
    return await fn(browser);
  } finally {
    await browser.close();
  }
}

/** Opens a one-time login link in a new page and waits until the dashboard has loaded and its live stream is connected. */
export async function signedInPage(browser: Browser, h: TestHost, viewport = { width: 1400, height: 1000 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.setDefaultTimeout(scaled(20_000));
  await page.goto(h.host.loginLink().url);
  await waitForDashboard(page);
  return page;
}

export async function waitForDashboard(page: Page): Promise<void> {
  await page.waitForSelector("body[data-ready='true']");
  // Expressions as strings: they run in the page, and this program is type-checked without the DOM library.
  await page.waitForFunction(`document.getElementById("live-state")?.textContent === "Live"`);
}
