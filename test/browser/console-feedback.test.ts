// The Feedback console page in a real Chromium against a real host with a crew: the entries
// newest first with links to the agent's and the task's pages, the agent filter kept in the
// address, feedback given through the form, an entry an agent posts arriving live, refusals
// shown with their codes, agent-written text as text, the accessibility check and 390 px.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { makeWorkspace, ORG } from "../plugins/agents/agents-rig.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, seriousViolations } from "./console.ts";
import { assertFitsWidth, assertNoXss, consoleSuite, XSS } from "./console-suite.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("console: feedback");
const missing = chromiumMissing();

async function give(h: TestHost, body: Record<string, unknown>, agentId?: string) {
  const res = await h.json<ApiBody<"postFeedback">>("/api/feedback", { method: "POST", body, ...(agentId ? { headers: { "x-agent-id": agentId } } : {}) });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.entry;
}

const s = consoleSuite(t, async () => {
  // freya's name is agent-written text (an XSS string): it shows in the filter and on her entries.
  const { home, workspace } = makeWorkspace({ "company/org_structure.yaml": ORG.replace("freya: {id: freya,", `freya: {id: freya, name: '${XSS}',`) });
  const host = await startTestHost({ home, workspace, config: { owner: "Daniel" } });
  await give(host, { agentId: "odin", taskId: "T-1", type: "correction", content: `Run the tests before review. ${XSS}`, context: `PR #12 ${XSS}` }, "thor");
  await give(host, { agentId: "freya", type: "praise", content: "Clear release notes." });
  return { host, stop: async () => (await host.stop(), removeHome(host.home)) };
});

const entries = (page: import("playwright-core").Page) => page.getByRole("list", { name: "Feedback entries, newest first" }).locator("li.feedback-entry");

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("the entries newest first, linked to the agent and the task; the agent filter in the address", async () => {
    await s.withPage("/console/feedback", async (page) => {
      await page.getByRole("heading", { level: 1, name: "Feedback" }).waitFor();
      await entries(page).nth(1).waitFor();
      const [newest, older] = [entries(page).nth(0), entries(page).nth(1)];
      assert.match(await newest.innerText(), "Clear release notes.");
      assert.match(await newest.innerText(), XSS, "freya's name shown as text");
      assert.match(await older.innerText(), `Run the tests before review. ${XSS}`);
      assert.match(await older.innerText(), `Context: PR #12 ${XSS}`);
      assert.is(await older.getByRole("link", { name: /odin/ }).getAttribute("href"), "/console/crew/odin");
      assert.is(await older.getByRole("link", { name: "Task T-1" }).getAttribute("href"), "/console/tasks/T-1");
      await assertNoXss(page);
      assert.equal(describeViolations(await seriousViolations(page)), "");

      await page.getByLabel("Show feedback for").selectOption("odin");
      await page.waitForURL(/\/console\/feedback\?agent=odin$/);
      await page.getByRole("heading", { level: 2, name: /^Feedback for .*odin/ }).waitFor();
      await entries(page).filter({ hasText: "Clear release notes." }).waitFor({ state: "detached" });
      assert.is(await entries(page).count(), 1);
      assert.match(await entries(page).first().innerText(), "Run the tests before review.");
      await page.getByRole("link", { name: "Task T-1" }).click();
      await page.waitForURL(/\/console\/tasks\/T-1$/);
      await page.goBack();
      await page.waitForURL(/\/console\/feedback\?agent=odin$/);
      await page.getByRole("link", { name: "Task T-1" }).waitFor();
    });
    // The address alone keeps the filter (a link, a reload).
    await s.withPage("/console/feedback?agent=freya", async (page) => {
      await entries(page).first().waitFor();
      assert.is(await page.getByLabel("Show feedback for").inputValue(), "freya");
      assert.is(await entries(page).count(), 1);
      assert.is(await page.getByLabel("Agent", { exact: true }).inputValue(), "freya", "the form gives feedback to the filtered agent");
    });
  });

  t("feedback given through the form appears; one an agent posts arrives live", async () => {
    await s.withPage("/console/feedback?agent=thor", async (page) => {
      await page.getByText("No feedback for thor yet.").waitFor();
      const form = page.getByRole("form", { name: "Give an agent feedback" });
      assert.is(await form.getByLabel("Agent", { exact: true }).inputValue(), "thor");
      await form.getByLabel("Type").selectOption("rule");
      await form.getByLabel("Task (optional)").fill("T-9");
      await form.getByLabel("Feedback", { exact: true }).fill("Always link the pull request.");
      await form.getByLabel("Context (optional)").fill("Review of T-9");
      await form.getByRole("button", { name: "Give feedback" }).click();
      const given = entries(page).filter({ hasText: "Always link the pull request." });
      await given.waitFor();
      assert.match(await given.innerText(), "Rule");
      assert.is(await given.getByRole("link", { name: "Task T-9" }).getAttribute("href"), "/console/tasks/T-9");
      assert.is(await form.getByLabel("Feedback", { exact: true }).inputValue(), "", "the form is cleared after giving");
      const stored = await s.host().json<ApiBody<"getFeedback">>("/api/feedback?agent=thor");
      assert.equal(stored.body.entries.map((e) => [e.type, e.taskId, e.content, e.context]), [["rule", "T-9", "Always link the pull request.", "Review of T-9"]]);

      // Posted by an agent while the page is open: it arrives through the live stream, newest first.
      await give(s.host(), { agentId: "thor", type: "pattern", content: `Thor keeps notes. ${XSS}` }, "odin");
      await entries(page).first().filter({ hasText: "Thor keeps notes." }).waitFor();
      assert.is(await entries(page).count(), 2);
      await assertNoXss(page);
    });
  });

  t("refusals show the API's code: blank feedback, a task id that is not an id, a filter that is not an agent id", async () => {
    await s.withPage("/console/feedback", async (page) => {
      const form = page.getByRole("form", { name: "Give an agent feedback" });
      await form.getByLabel("Feedback", { exact: true }).fill("   ");
      await form.getByRole("button", { name: "Give feedback" }).click();
      await form.getByRole("alert").getByText(/VALIDATION_FAILED/).waitFor();
      assert.match(await form.getByRole("alert").innerText(), /content/);
      assert.is(await form.getByLabel("Feedback", { exact: true }).inputValue(), "   ", "what was typed is kept");

      await form.getByLabel("Feedback", { exact: true }).fill("Fine words.");
      await form.getByLabel("Task (optional)").fill("T 1/../x");
      await form.getByRole("button", { name: "Give feedback" }).click();
      await form.getByRole("alert").getByText(/VALIDATION_FAILED.*taskId/).waitFor();
    });
    const all = await s.host().json<ApiBody<"getFeedback">>("/api/feedback?limit=500");
    assert.not.ok(all.body.entries.some((e) => e.content === "Fine words." || e.content.trim() === ""), "nothing refused was stored");
    await s.withPage("/console/feedback?agent=not%20an%20id", async (page) => {
      await page.getByRole("alert").getByText(/VALIDATION_FAILED/).waitFor();
    });
  });

  t("at 390 px wide the page does not scroll sideways", async () => {
    await s.withPage("/console/feedback", async (page) => {
      await entries(page).first().waitFor();
      await assertFitsWidth(page);
      assert.ok((await page.evaluate("document.documentElement.scrollWidth")) as number <= 390);
      assert.equal(describeViolations(await seriousViolations(page)), "");
    }, { width: 390, height: 800 });
  });
}

t.run();
