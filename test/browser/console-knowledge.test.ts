// The Knowledge console pages in a real Chromium against a real host: Search finds a file
// written to the workspace (full text, excerpt as text, the query kept in the URL),
// the semantic mode refused with its code while disabled and answering once enabled,
// the Memory page (days, a day and MEMORY.md as text), agent-written text as text, the
// accessibility check and 390 px.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { removeHome, type TestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import { scaled } from "../helpers/time-scale.ts";
import { startWithFiles } from "../plugins/search/helpers.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, seriousViolations } from "./console.ts";
import { assertNoXss as noXss, startSuiteBrowser, XSS, type StartedSuiteBrowser } from "./console-suite.ts";

const t = suite("console: knowledge");
const missing = chromiumMissing();

let h: TestHost;
let browser: StartedSuiteBrowser;

t.before(async () => {
  if (missing) return;
  // A file written to the workspace (agent-written: the XSS string in its text); the host starts and indexes it.
  h = await startWithFiles({
    "knowledge/zanzibar.md": `# Zanzibar rollout\nThe zanzibar gateway ships on Friday. ${XSS}\n`,
    "memory/2026-11-20.md": `# 20 November\nShipped the *gateway*. ${XSS}\n`,
    "MEMORY.md": `# Long-term\n- The crew prefers **small** releases. ${XSS}\n`,
  }, { config: { vaultKey: "knowledge test passphrase" } });
  browser = await startSuiteBrowser();
});

t.after(async () => {
  if (missing) return;
  await browser?.close();
  await h.stop();
  removeHome(h.home);
});

const withPage = (path: string, fn: (page: Page) => Promise<void>, viewport?: { width: number; height: number }) => browser.withPage(h, path, fn, viewport);

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("search: a file written to the workspace is found, its excerpt shown as text, the query kept in the URL", async () => {
    await withPage("/console/search", async (page) => {
      await page.getByRole("heading", { level: 1, name: "Search" }).waitFor();
      const form = page.getByRole("search", { name: "Search the workspace" });
      await form.getByLabel("Search for").fill("zanzibar");
      await form.getByRole("button", { name: "Search" }).click();
      const result = page.locator(".search-results li", { hasText: "knowledge/zanzibar.md" });
      await result.waitFor();
      assert.match(await result.innerText(), "The zanzibar gateway ships on Friday.");
      assert.match(await result.innerText(), XSS);
      assert.match(page.url(), /\/console\/search\?q=zanzibar$/);
      await noXss(page);
      assert.equal(describeViolations(await seriousViolations(page)), "");
    });
    // The address alone repeats the search (a link, the back button, a reload).
    await withPage("/console/search?q=zanzibar", async (page) => {
      await page.locator(".search-results li", { hasText: "knowledge/zanzibar.md" }).waitFor();
      assert.is(await page.getByLabel("Search for").inputValue(), "zanzibar");
    });
  });

  t("search: nothing found says so; semantic search while disabled is refused with RAG_DISABLED", async () => {
    await withPage("/console/search?q=qwxzvbnm", async (page) => {
      await page.getByText("Nothing matches “qwxzvbnm”.").waitFor();
    });
    await withPage("/console/search?q=zanzibar&mode=semantic", async (page) => {
      await page.getByRole("alert").getByText("RAG_DISABLED").waitFor();
      assert.is(await page.getByRole("radio", { name: /^Semantic/ }).isChecked(), true);
    });
  });

  t("search: the semantic mode finds the passage once memory is indexed", async () => {
    const enabled = await h.json("/api/memory/config", { method: "POST", body: { provider: "hash", enabled: true } });
    assert.is(enabled.status, 200, JSON.stringify(enabled.body));
    await waitUntil(async () => {
      const res = await h.json("/api/memory/rag?q=zanzibar%20gateway");
      return res.status === 200 && res.body.results.some((r: { path: string }) => r.path.endsWith("zanzibar.md")) ? true : null;
    }, { timeoutMs: scaled(30_000), label: "memory indexed" });
    await withPage("/console/search", async (page) => {
      const form = page.getByRole("search", { name: "Search the workspace" });
      await form.getByLabel("Search for").fill("zanzibar gateway");
      await form.getByRole("radio", { name: /^Semantic/ }).check();
      await form.getByRole("button", { name: "Search" }).click();
      await page.locator(".search-results li", { hasText: "zanzibar.md" }).first().waitFor();
      assert.match(page.url(), /mode=semantic/);
      await noXss(page);
    });
  });

  t("memory: the days, one day read as text (markdown not rendered), the long-term file", async () => {
    await withPage("/console/memory", async (page) => {
      await page.getByRole("heading", { level: 1, name: "Memory" }).waitFor();
      const longTerm = page.getByLabel("Text of the long-term memory");
      await longTerm.waitFor();
      assert.match(await longTerm.innerText(), `**small** releases. ${XSS}`);
      await page.getByRole("link", { name: "2026-11-20" }).click();
      const day = page.getByLabel("Memory of 2026-11-20");
      await day.waitFor();
      assert.match(await day.innerText(), `Shipped the *gateway*. ${XSS}`);
      assert.match(page.url(), /\/console\/memory\/2026-11-20$/);
      await noXss(page);
      assert.equal(describeViolations(await seriousViolations(page)), "");
    });
    await withPage("/console/memory/2020-01-01", async (page) => {
      await page.getByRole("alert").getByText("No daily memory for 2020-01-01.").waitFor();
    });
  });

  t("at 390 px wide the search and memory pages do not scroll sideways", async () => {
    await withPage("/console/search?q=zanzibar", async (page) => {
      await page.locator(".search-results li").first().waitFor();
      assert.ok((await page.evaluate("document.documentElement.scrollWidth")) as number <= 390);
    }, { width: 390, height: 800 });
    await withPage("/console/memory", async (page) => {
      await page.getByLabel("Text of the long-term memory").waitFor();
      assert.ok((await page.evaluate("document.documentElement.scrollWidth")) as number <= 390);
    }, { width: 390, height: 800 });
  });
}

t.run();
