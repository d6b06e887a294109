// Helpers for the console's browser suites: open a place signed in (or not), wait until the
// frame has drawn and the live stream is connected, and check a page with axe-core (no
// serious or critical violation).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import type { TestHost } from "../helpers/start-test-host.ts";
import { scaled } from "../helpers/time-scale.ts";

/** A browser's signed-in session on one host: the context holding its cookie, and the tab secret. */
interface Session {
  context: BrowserContext;
  csrf: string;
}
// Per browser, per running host (a restart makes a new Host, so a new sign-in).
const sessions = new WeakMap<Browser, WeakMap<object, Promise<Session>>>();

/**
 * Opens `path` (`/console/work`, `/`) signed in. The first page a browser opens on a host
 * signs in as a person does, through a one-time login link (the redirect lands on `/`), then
 * goes to `path`; its context (the HttpOnly session cookie) and the tab's CSRF secret are kept.
 * Every later page opens in that context straight at `path#csrf=<secret>`, the fragment the
 * login redirect itself hands over (session.ts reads and removes it): one page load instead of
 * two, and the home page with every panel not loaded for nothing, about a second less per page
 * on the loaded CI machine. Pages share only the cookie and the HTTP cache (the console keeps
 * nothing in localStorage; sessionStorage is per tab). A suite that needs its own session, or
 * tests signing in itself, opens its own context (browser.newPage()).
 */
export async function openConsole(browser: Browser, h: TestHost, path = "/", viewport = { width: 1400, height: 1000 }): Promise<Page> {
  let byHost = sessions.get(browser);
  if (!byHost) sessions.set(browser, (byHost = new WeakMap()));
  const known = byHost.get(h.host);
  if (!known) {
    let signedIn!: (session: Session) => void;
    let failed!: (error: unknown) => void;
    const session = new Promise<Session>((resolve, reject) => ((signedIn = resolve), (failed = reject)));
    session.catch(() => byHost.delete(h.host)); // the next page tries again
    byHost.set(h.host, session);
    try {
      const context = await browser.newContext({ viewport });
      context.on("close", () => byHost.get(h.host) === session && byHost.delete(h.host));
      const page = await context.newPage();
      page.setDefaultTimeout(scaled(20_000));
      await page.goto(h.host.loginLink().url);
      await waitForConsole(page);
      const csrf = (await page.evaluate(`sessionStorage.getItem("muster.csrf")`)) as string | null;
      if (!csrf) throw new Error("the login link gave the tab no CSRF secret");
      signedIn({ context, csrf });
      if (path !== "/") {
        await page.goto(new URL(path, h.url).href);
        await waitForConsole(page);
      }
      return page;
    } catch (error) {
      failed(error);
      throw error;
    }
  }
  const { context, csrf } = await known;
  const page = await context.newPage();
  page.setDefaultTimeout(scaled(20_000));
  await page.setViewportSize(viewport);
  const url = new URL(path, h.url);
  url.hash = `csrf=${csrf}`;
  await page.goto(url.href);
  await waitForConsole(page);
  return page;
}

/** The frame has drawn (its page list loaded) and the live stream is connected. */
export async function waitForConsole(page: Page): Promise<void> {
  await page.waitForSelector("body[data-ready='true']");
  // Expressions as strings: they run in the page, and this program is type-checked without the DOM library.
  await page.waitForFunction(`document.getElementById("live-state")?.textContent === "Live"`);
}

/**
 * Follows a tab's requests (its live stream aside, which never ends) so a test can wait for its
 * page's data loads to be over: `settled()` resolves once none is in flight and the page has had
 * two frames and a task since the last one ended to start another (a component fetches in an
 * effect, run after the frame that drew it). `waitForLoadState("networkidle")` instead waits for
 * 500 ms of quiet after the last request, about 400 ms per page after the heading has shown.
 * Attach before the navigation whose loads should be waited for.
 */
export function requestTracker(page: Page): { settled(): Promise<void> } {
  const inFlight = new Set<Request>();
  let started = 0;
  let drained: (() => void) | undefined;
  page.on("request", (request) => {
    if (request.resourceType() === "eventsource") return;
    inFlight.add(request);
    started++;
  });
  const ended = (request: Request) => {
    if (!inFlight.delete(request) || inFlight.size > 0) return;
    drained?.();
  };
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  return {
    async settled() {
      const deadline = Date.now() + scaled(20_000);
      for (;;) {
        if (inFlight.size > 0) {
          const left = deadline - Date.now();
          const over = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(true), Math.max(0, left));
            drained = () => (clearTimeout(timer), resolve(false));
          });
          if (over) throw new Error(`requests still in flight after ${scaled(20_000)} ms: ${[...inFlight].map((r) => r.url()).join(", ")}`);
        }
        const before = started;
        await page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done))))");
        if (inFlight.size === 0 && started === before) return;
      }
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string }[];
}

/**
 * Puts axe-core into every document `page` opens from now on (Playwright sends its 650 KB once,
 * as an init script), for a tab that checks one page after another: `seriousViolations` finds it
 * there instead of sending it again for each, about 0.4 s per page on the loaded machine.
 */
export async function axeInEveryDocument(page: Page): Promise<void> {
  await page.addInitScript({ content: axeSource });
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.1 A and AA rules). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Injected once per document (a second check on the same page reuses it).
  if (await page.evaluate(`typeof axe === "undefined"`)) await page.evaluate(axeSource);
  // resultTypes: only the violations get a selector and markup for every node; passes and the
  // rest keep one node each (axe's own advice for speed). Which rules run, and what is found
  // violating, do not change.
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"], runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, html: n.html.slice(0, 200) })) })))`)) as AxeViolation[];
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}

/** A readable list of violations for an assertion message. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => `${n.target.join(" ")} ${n.html}`).join("\n  ")}`).join("\n");
}
