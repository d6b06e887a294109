// The Usage console page in a real Chromium against a real host, its usage seeded through the
// usage API: the charts (SVG images with their figures as tables) show the seeded cost by agent
// and by model; a cost recorded while the page is open shows live; a budget is set and edited
// (and refused with its code); today's spend against the budget shows on the page and the home
// panel; agent-written model names stay text; the accessibility check; 390 px wide.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, seriousViolations } from "./console.ts";
import { assertFitsWidth, assertNoXss, suiteBrowser, withConsolePage } from "./console-suite.ts";

const t = suite("console: usage");
const missing = chromiumMissing();
const XSS = `<img src=x onerror="window.__xss=1">`;
const DAY_MS = 86_400_000;

let h: TestHost;
const suiteChrome = suiteBrowser();

async function record(body: Record<string, unknown>) {
  const res = await h.json("/api/usage", { method: "POST", body: { action: "session", ...body } });
  assert.is(res.status, 201, JSON.stringify(res.body));
}

t.before(async () => {
  if (missing) return;
  h = await startTestHost();
  // Today: writer $3.00 on Sonnet (1M input tokens at $3/M); scout on an unpriced model whose name is an XSS string.
  await record({ agentId: "writer", model: "claude-sonnet-4-6", inputTokens: 1_000_000 });
  await record({ agentId: "scout", model: XSS, inputTokens: 4_000, outputTokens: 1_000 });
  // Three days ago: writer $7.50 on Opus (100k output tokens at $75/M).
  await record({ agentId: "writer", model: "claude-opus-4-1", outputTokens: 100_000, timestamp: new Date(Date.now() - 3 * DAY_MS).toISOString() });
  await suiteChrome.open();
});

t.after(async () => {
  if (missing) return;
  await suiteChrome.close();
  await h.stop();
  removeHome(h.home);
});

const withPage = (path: string, fn: (page: Page) => Promise<void>, viewport?: { width: number; height: number }) => withConsolePage(suiteChrome.browser, h, path, fn, viewport);

const chartTable = (page: Page, title: string) => page.locator("table").filter({ has: page.locator("caption", { hasText: title }) });

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("the charts show the seeded usage by agent and by model, as images and as tables; model names stay text", () =>
    withPage("/console/usage", async (page) => {
      const overTime = page.getByRole("region", { name: "Over time" });
      const byAgent = overTime.getByRole("img", { name: /^Estimated cost per day by agent: \$10\.50 in total over 14 entries, writer, scout\./ });
      await byAgent.waitFor();
      await overTime.getByRole("img", { name: /^Estimated cost per day by model: \$10\.50 in total/ }).waitFor();
      // The figures behind the bars: the last row is today, the fourth from last three days ago.
      const agentRows = chartTable(page, "Estimated cost per day by agent").locator("tbody tr");
      assert.is(await agentRows.count(), 14);
      assert.match((await agentRows.nth(13).textContent())!, /\$3\.00/);
      assert.match((await agentRows.nth(10).textContent())!, /\$7\.50/);
      const modelHeaders = await chartTable(page, "Estimated cost per day by model").locator("thead th").allTextContents();
      assert.equal(modelHeaders, ["Day", "claude-opus-4-1", "claude-sonnet-4-6", XSS, "Total"]);
      // Tokens instead of cost.
      await overTime.getByLabel("Show").selectOption("tokens");
      await overTime.getByRole("img", { name: /^Tokens per day by agent: 1,105,000 in total/ }).waitFor();
      await overTime.getByLabel("Period").selectOption("7");
      await overTime.getByRole("img", { name: /^Tokens per day by model: 1,105,000 in total over 7 entries/ }).waitFor();
      await assertNoXss(page);
    }));

  t("a cost recorded while the page is open shows live", () =>
    withPage("/console/usage", async (page) => {
      const today = page.getByRole("region", { name: "Today against budgets" });
      await today.locator("dd").getByText("$3.00").waitFor();
      await record({ agentId: "writer", model: "claude-sonnet-4-6", inputTokens: 500_000 });
      await today.locator("dd").getByText("$4.50").waitFor();
      await page.getByRole("img", { name: /^Estimated cost per day by agent: \$12\.00 in total/ }).waitFor();
    }));

  t("a budget is set, refused with its code, and edited in place; today's spend shows against it on the page and the home panel", async () => {
    await withPage("/console/usage", async (page) => {
      const today = page.getByRole("region", { name: "Today against budgets" });
      const form = today.getByRole("form", { name: "Set a daily budget" });
      await form.getByLabel("Agent id").fill("not an id!");
      await form.getByLabel("Daily budget in dollars").fill("5");
      await form.getByRole("button", { name: "Set budget" }).click();
      await form.getByRole("alert").getByText(/^VALIDATION_FAILED: /).waitFor();
      await form.getByLabel("Agent id").fill("writer");
      await form.getByRole("button", { name: "Set budget" }).click();
      const writer = today.locator("tr[data-agent='writer']");
      await writer.getByText("$5.00").waitFor();
      // Spent $4.50 of $5.00: 90%, a warning.
      await writer.getByText("90%").waitFor();
      const editor = writer.getByRole("form", { name: "Daily budget of writer" });
      await editor.getByLabel("Daily budget of writer in dollars").fill("4");
      await editor.getByRole("button", { name: "Save the budget of writer" }).click();
      await writer.getByText("Exceeded").waitFor();
      assert.equal((await h.json("/api/usage/budgets/writer")).body.budget, { agentId: "writer", spentCents: 450, budgetCents: 400, exceeded: true });
      // An agent that spent nothing but has a budget is listed too.
      await form.getByLabel("Agent id").fill("idle-agent");
      await form.getByLabel("Daily budget in dollars").fill("1.25");
      await form.getByRole("button", { name: "Set budget" }).click();
      await today.locator("tr[data-agent='idle-agent']").getByText("$1.25").waitFor();
    });
    await withPage("/", async (page) => {
      const panel = page.getByRole("region", { name: "Usage today" });
      await panel.getByText("of $4.00: budget exceeded").waitFor();
      await panel.getByText("$0.00 of $1.25 budget").waitFor();
    });
  });

  t("no serious accessibility violation, and usable at 390 px wide", async () => {
    for (const viewport of [undefined, { width: 390, height: 844 }]) {
      await withPage("/console/usage", async (page) => {
        await page.getByRole("img", { name: /^Estimated cost per day by model/ }).waitFor();
        await page.locator("tr[data-agent='writer']").waitFor();
        assert.equal(describeViolations(await seriousViolations(page)), "");
        await assertFitsWidth(page);
      }, viewport);
    }
  });
}

t.run();
