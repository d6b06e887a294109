// Helpers for the console's browser suites: open a place signed in (or not), wait until the
// frame has drawn and the live stream is connected, and check a page with axe-core (no
// serious or critical violation).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import type { TestHost } from "../helpers/start-test-host.ts";
import { scaled } from "../helpers/time-scale.ts";

/** Signs in through a one-time login link, then opens `path` (`/console/work`, `/`). */
export async function openConsole(browser: Browser, h: TestHost, path = "/", viewport = { width: 1400, height: 1000 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.setDefaultTimeout(scaled(20_000));
  await page.goto(h.host.loginLink().url);
  await waitForConsole(page);
  if (path !== "/") {
    await page.goto(new URL(path, h.url).href);
    await waitForConsole(page);
  }
  return page;
}

/** The frame has drawn (its page list loaded) and the live stream is connected. */
export async function waitForConsole(page: Page): Promise<void> {
  await page.waitForSelector("body[data-ready='true']");
  // Expressions as strings: they run in the page, and this program is type-checked without the DOM library.
  await page.waitForFunction(`document.getElementById("live-state")?.textContent === "Live"`);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string }[];
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.1 A and AA rules). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(`axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, html: n.html.slice(0, 200) })) })))`)) as AxeViolation[];
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}

/** A readable list of violations for an assertion message. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => `${n.target.join(" ")} ${n.html}`).join("\n  ")}`).join("\n");
}
