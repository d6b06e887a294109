// The Dispatch page in a real headless Chromium against a real host wired to the fake gateway:
// a task dispatched from the page runs, the agent's reply puts it in review, its task.review
// approval is linked to /console/approvals/<id> and its decision shows up live; a refusal shows
// its code; agent-written titles and replies stay text; the accessibility check; 390 px.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { chromiumMissing } from "./browser.ts";
import { consoleSuite, type ConsoleSuite } from "./console-suite.ts";
import { describeViolations, seriousViolations } from "./console.ts";
import { createTask, decide, reviewApprovals, startDispatchRig, type DispatchRig } from "../plugins/dispatch/dispatch-rig.ts";
import { waitUntil } from "../helpers/wait.ts";

const t = suite("console: dispatch");
const missing = chromiumMissing();
const XSS = `<img src=x onerror="window.__xss=1">`;

let rig: DispatchRig;
const suiteRig = missing ? undefined : consoleSuite(t, async () => {
  rig = await startDispatchRig();
  rig.gw.onChat((agentId, message) => ({ text: `Done by ${agentId}: ${message.split("\n")[0]}`, usage: { input: 10, output: 5 } }));
  return { host: rig.h, stop: () => rig.close() };
});
const withPage: ConsoleSuite["withPage"] = (path, fn, viewport) => suiteRig!.withPage(path, fn, viewport);

const dispatchRow = (page: Page, title: string) => page.locator("table.data tbody tr").filter({ has: page.getByRole("link", { name: title, exact: true }) });

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("a task dispatched from the page runs, goes to review, and its review approval is linked and followed live", async () => {
    const task = await createTask(rig.h, { title: "Draft the changelog", assignedTo: "loki" });
    await withPage(`/console/dispatch?task=${task.id}`, async (page) => {
      assert.is(await page.getByRole("combobox", { name: "Task" }).inputValue(), task.id, "?task= preselects the task");
      await page.getByRole("button", { name: "Dispatch task" }).click();
      await page.getByRole("status").getByText("Dispatched “Draft the changelog” to loki.").waitFor();
      const line = dispatchRow(page, "Draft the changelog");
      await line.locator('[data-dispatch-state="completed"]').waitFor();
      await line.getByText("Done by loki: ").waitFor();
      const link = line.getByRole("link", { name: "Review waiting for you" });
      await link.waitFor();
      const [approval] = await waitUntil(async () => ((await reviewApprovals(rig.h, task.id)).length ? reviewApprovals(rig.h, task.id) : null), { label: "review approval" });
      assert.is(await link.getAttribute("href"), `/console/approvals/${approval!.id}`);
      // Decided elsewhere (the inbox, the CLI): the page follows.
      const decided = await decide(rig.h, approval!.id, "approved");
      assert.is(decided.status, 200, JSON.stringify(decided.body));
      await line.getByRole("link", { name: "Review approved" }).waitFor();
      // The task's page shows the same review and the dispatch.
      await line.getByRole("link", { name: "Draft the changelog" }).click();
      await page.getByRole("heading", { level: 1, name: "Draft the changelog" }).waitFor();
      await page.getByRole("link", { name: "Review task: Draft the changelog" }).waitFor();
      await page.getByRole("region", { name: "Dispatches" }).getByText("completed").waitFor();
    });
  });

  t("a refused dispatch shows the API's code: a task without an assignee", async () => {
    const task = await createTask(rig.h, { title: "Nobody's task" });
    await withPage(`/console/dispatch?task=${task.id}`, async (page) => {
      await page.getByRole("button", { name: "Dispatch task" }).click();
      await page.locator(".error").getByText("DISPATCH_TASK_UNASSIGNED").waitFor();
    });
  });

  t("no form before the tasks are in: a click then would send an empty task id", async () => {
    const task = await createTask(rig.h, { title: "Held task", assignedTo: "loki" });
    await withPage(`/console/dispatch?task=${task.id}`, async (page) => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/api/tasks**", async (route) => {
        await released;
        await route.continue();
      });
      await page.reload();
      await page.getByText("Loading the tasks…").waitFor();
      assert.is(await page.getByRole("button", { name: "Dispatch task" }).count(), 0, "no button while the tasks load");
      release();
      await page.getByRole("button", { name: "Dispatch task" }).waitFor();
      assert.is(await page.getByRole("combobox", { name: "Task" }).inputValue(), task.id);
    });
  });

  t("agent-written titles and replies stay text", async () => {
    rig.gw.onChat(() => ({ text: XSS }));
    const task = await createTask(rig.h, { title: XSS, assignedTo: "freya" });
    await withPage(`/console/dispatch?task=${task.id}`, async (page) => {
      await page.getByRole("button", { name: "Dispatch task" }).click();
      await dispatchRow(page, XSS).locator(".reply-text").getByText(XSS).waitFor();
      assert.is(await page.locator("img[src=x]").count(), 0);
      assert.is(await page.evaluate("window.__xss"), undefined);
    });
  });

  t("no serious accessibility violation, and the page fits 390 px", async () => {
    await withPage("/console/dispatch", async (page) => {
      await page.locator("table.data, .empty").first().waitFor();
      assert.equal(describeViolations(await seriousViolations(page)), "");
    });
    await withPage("/console/dispatch", async (page) => {
      await page.locator("table.data, .empty").first().waitFor();
      assert.ok(await page.evaluate<boolean>("document.documentElement.scrollWidth <= 390"), "no horizontal scroll of the page");
    }, { width: 390, height: 844 });
  });
}

t.run();
