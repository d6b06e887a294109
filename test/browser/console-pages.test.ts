// Every page the console lists, opened in a real browser against a host with every built-in
// plugin: it loads without a script error, its heading is its title, its navigation link is
// marked current, axe-core finds no serious or critical violation, and at 390 px wide the page
// does not scroll sideways. A page added later is checked here without a line of test.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Browser } from "playwright-core";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { chromiumMissing } from "./browser.ts";
import { suiteBrowser } from "./console-suite.ts";
import { axeInEveryDocument, describeViolations, openConsole, requestTracker, seriousViolations, waitForConsole } from "./console.ts";

const t = suite("every console page");
const missing = chromiumMissing();

interface ListedPage { id: string; title: string; path: string; plugin: string }
let h: TestHost;
let pages: ListedPage[] = [];
/** One browser for the suite (console-suite.ts): both sweeps sign in once. */
const shared = suiteBrowser();

t.before(async () => {
  if (missing) return;
  h = await startTestHost({ config: { owner: "sam" }, env: { VAULT_KEY: "console-pages-passphrase" } });
  ({ pages } = (await (await h.request("/dashboard/pages")).json()) as { pages: ListedPage[] });
  await shared.open();
});

t.after(async () => {
  if (missing) return;
  await shared.close();
  await h.stop();
  removeHome(h.home);
});

/** Opens each place in turn in one signed-in tab, collecting script errors per place (and with axe-core in each, for `withAxe`). */
async function eachPlace(browser: Browser, width: number, withAxe: boolean, check: (path: string, title: string, errors: string[], tab: import("playwright-core").Page) => Promise<void>) {
  const tab = await openConsole(browser, h, "/", { width, height: 900 });
  if (withAxe) await axeInEveryDocument(tab);
  let errors: string[] = [];
  tab.on("pageerror", (error) => errors.push(error.message));
  const requests = requestTracker(tab);
  try {
    for (const place of [{ path: "/", title: "Home" }, ...pages]) {
      errors = [];
      await tab.goto(new URL(place.path, h.url).href);
      await waitForConsole(tab);
      await tab.getByRole("heading", { level: 1, name: place.title }).waitFor();
      // Settle: the page's first data load (every page shows a heading before its data).
      await requests.settled();
      await check(place.path, place.title, errors, tab);
    }
  } finally {
    await tab.close();
  }
}

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("the console lists pages, and only contributed ones are served", async () => {
    assert.ok(pages.length > 0, "no page is contributed");
    for (const page of pages) assert.is(page.path, `/console/${page.id}`);
    const unknown = await h.request("/console/no-such-page");
    assert.is(unknown.status, 404);
    assert.is(((await unknown.json()) as { error: { code: string } }).error.code, "DASHBOARD_PAGE_NOT_FOUND");
  });

  t("every page loads without a script error, names itself, and passes axe-core", () =>
    eachPlace(shared.browser, 1400, true, async (path, title, errors, tab) => {
        assert.equal(errors, [], `${path}: script errors`);
        assert.is(await tab.title(), path === "/" ? "Muster" : `${title} · Muster`);
        if (path !== "/") assert.is(await tab.locator("nav#console-nav a[aria-current='page']").textContent(), title, `${path}: the navigation marks the page`);
        assert.is(describeViolations(await seriousViolations(tab)), "", `${path}: accessibility`);
      }));

  t("every page is usable at 390 px wide: no sideways scroll, the menu opens", () =>
    eachPlace(shared.browser, 390, false, async (path, _title, errors, tab) => {
        assert.equal(errors, [], `${path}: script errors`);
        const width = (await tab.evaluate("document.documentElement.scrollWidth")) as number;
        assert.ok(width <= 390, `${path}: the page is ${width} px wide at 390`);
        const menu = tab.getByRole("button", { name: "Open the menu" });
        await menu.click();
        await tab.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Home" }).waitFor();
        await tab.getByRole("button", { name: "Close the menu" }).click();
      }));
}

t.run();
