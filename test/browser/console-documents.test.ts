// The Documents console page in a real Chromium against a real host: the workspace's markdown
// and YAML files listed newest first with a count per category, a category chosen through
// the address (kept by a reload), one document opened as text at /console/documents/<path>,
// a file written to a watched location appearing live, "Show more" past 50 rows, a path
// leaving the workspace refused with its code, agent-written names and contents as text,
// the accessibility check and 390 px.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { removeHome, type TestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import { scaled } from "../helpers/time-scale.ts";
import { startWithFiles } from "../plugins/search/helpers.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, seriousViolations } from "./console.ts";
import { assertFitsWidth, assertNoXss, consoleSuite, XSS, type ConsoleSuite } from "./console-suite.ts";

const t = suite("console: documents");
const missing = chromiumMissing();

/** An agent-written file name: the XSS string is a legal name on Linux (it holds no `/`). */
const XSS_REPORT = `reports/${XSS}.md`;
const NOTES = 55;

let h: TestHost;
const suiteRig = missing ? undefined : consoleSuite(t, async () => {
  const notes = Object.fromEntries(Array.from({ length: NOTES }, (_, i) => [`notes/note-${String(i).padStart(2, "0")}.md`, `note ${i}`]));
  const host = await startWithFiles(
    {
      ...notes,
      "memory/2026-11-20.md": "# 20 November\nShipped the gateway.\n",
      "architecture/adr-0001-sqlite.md": "# ADR 1: SQLite\nWe keep **one** file.\n",
      [XSS_REPORT]: `# Weekly ${XSS}\nAll *green*. ${XSS}\n`,
    },
    { waitForIndex: false },
  );
  // Distinct modification times, oldest first: the notes, the journal, the ADR, the report (newest).
  const order = [...Object.keys(notes), "memory/2026-11-20.md", "architecture/adr-0001-sqlite.md", XSS_REPORT];
  order.forEach((path, i) => {
    const when = new Date(Date.now() - (order.length - i) * 60_000);
    utimesSync(join(host.workspace, path), when, when);
  });
  return { host, stop: async () => { await host.stop(); removeHome(host.home); } };
});
t.before(() => void (h = suiteRig!.host()));
const withPage: ConsoleSuite["withPage"] = (path, fn, viewport) => suiteRig!.withPage(path, fn, viewport);
const categories = (page: Page) => page.getByRole("navigation", { name: "Document categories" });
const rows = (page: Page) => page.locator("table.data tbody tr");
/** Waits until the table has exactly `n` rows (the page may first draw an older answer). */
const rowCount = (page: Page, n: number) => waitUntil(async () => ((await rows(page).count()) === n ? true : null), { timeoutMs: scaled(20_000), label: `${n} rows` });

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("documents newest first with counts per category; a category chosen in the address survives a reload; one opened as text", async () => {
    await withPage("/console/documents", async (page) => {
      await page.getByRole("heading", { level: 1, name: "Documents" }).waitFor();
      await categories(page).getByRole("link", { name: `All (${NOTES + 3})` }).waitFor();
      for (const label of ["Journal (1)", "ADR (1)", "Report (1)", `Other (${NOTES})`]) await categories(page).getByRole("link", { name: label }).waitFor();
      assert.is(await categories(page).getByRole("link", { name: /^Insights/ }).count(), 0, "empty categories are left out");
      // Newest first: the report, the ADR, the journal, then the notes.
      await rows(page).first().getByText(XSS_REPORT).waitFor();
      assert.match(await rows(page).nth(1).innerText(), "architecture/adr-0001-sqlite.md");
      assert.match(await rows(page).nth(2).innerText(), "memory/2026-11-20.md");

      await categories(page).getByRole("link", { name: "ADR (1)" }).click();
      await page.waitForURL(/\/console\/documents\?category=ADR$/);
      await page.getByRole("heading", { level: 2, name: "ADR documents" }).waitFor();
      await rowCount(page, 1);
      assert.is(await categories(page).getByRole("link", { name: "ADR (1)" }).getAttribute("aria-current"), "page");

      await page.reload();
      await page.getByRole("heading", { level: 2, name: "ADR documents" }).waitFor();
      await page.getByRole("link", { name: "adr-0001-sqlite.md" }).click();
      await page.waitForURL(/\/console\/documents\/architecture%2Fadr-0001-sqlite\.md\?category=ADR$/);
      const text = page.getByLabel("Text of architecture/adr-0001-sqlite.md");
      await text.waitFor();
      assert.match(await text.innerText(), "We keep **one** file.");
      const meta = await page.locator(".page .panel .meta").first().innerText();
      assert.match(meta, "ADR");
      assert.match(meta, "8 words");
      assert.match(meta, /\d+ B/);
      await page.getByRole("link", { name: "All documents" }).click();
      await page.waitForURL(/\/console\/documents\?category=ADR$/);
    });
  });

  t("agent-written file names and contents are text; the page passes axe", () =>
    withPage(`/console/documents/${encodeURIComponent(XSS_REPORT)}`, async (page) => {
      const text = page.getByLabel(`Text of ${XSS_REPORT}`);
      await text.waitFor();
      assert.match(await text.innerText(), `All *green*. ${XSS}`);
      await page.getByRole("heading", { level: 2, name: `${XSS}.md` }).waitFor();
      await assertNoXss(page);
      assert.equal(describeViolations(await seriousViolations(page)), "");
      await page.getByRole("link", { name: "All documents" }).click();
      await rows(page).first().getByRole("link", { name: `${XSS}.md` }).waitFor();
      await assertNoXss(page);
      assert.equal(describeViolations(await seriousViolations(page)), "");
    }));

  t("a long list shows 50 rows and the rest after Show more; a file written to memory/ appears live", () =>
    withPage("/console/documents?category=Other", async (page) => {
      await rowCount(page, 50);
      await page.getByRole("button", { name: `Show more other documents (${NOTES - 50} more)` }).click();
      await rowCount(page, NOTES);
      await categories(page).getByRole("link", { name: "All", exact: false }).first().click();
      await categories(page).getByRole("link", { name: "Journal (1)" }).waitFor();
      writeFileSync(join(h.workspace, "memory/2026-11-21.md"), "# 21 November\nA new day.\n");
      await categories(page).getByRole("link", { name: "Journal (2)" }).waitFor();
      await rows(page).first().getByText("memory/2026-11-21.md").waitFor();
    }));

  t("a path leaving the workspace is refused with its code; a missing document says so", async () => {
    await withPage(`/console/documents/${encodeURIComponent("../outside.md")}`, async (page) => {
      await page.getByRole("alert").getByText(/^PATH_OUTSIDE_WORKSPACE: /).waitFor();
    });
    await withPage(`/console/documents/${encodeURIComponent("notes/missing.md")}`, async (page) => {
      await page.getByRole("alert").getByText("No document at notes/missing.md", { exact: false }).waitFor();
    });
  });

  t("at 390 px wide the list and a document do not scroll sideways", async () => {
    await withPage("/console/documents", async (page) => {
      await rows(page).first().waitFor();
      await assertFitsWidth(page);
    }, { width: 390, height: 800 });
    await withPage(`/console/documents/${encodeURIComponent(XSS_REPORT)}`, async (page) => {
      await page.getByLabel(`Text of ${XSS_REPORT}`).waitFor();
      await assertFitsWidth(page);
    }, { width: 390, height: 800 });
  });
}

t.run();
