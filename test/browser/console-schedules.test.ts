// The Schedules console page in a real Chromium against a real host wired to the fake gateway:
// a cron created in the form runs now and its run (with the agent's reply) appears live on the
// job's page; a bad expression is refused with CRON_INVALID_EXPRESSION and what was typed is
// kept; the next fire is written in the job's zone and the viewer's; edit, disable and delete;
// agent-written text (name, message, reply) stays text; the accessibility check; 390 px wide.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { startRig, type Rig } from "../plugins/chat/chat-helpers.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, seriousViolations } from "./console.ts";
import { assertFitsWidth, assertNoXss, suiteBrowser, withConsolePage } from "./console-suite.ts";

const t = suite("console: schedules");
const missing = chromiumMissing();
const XSS = `<img src=x onerror="window.__xss=1">`;

let rig: Rig;
const suiteChrome = suiteBrowser();

t.before(async () => {
  if (missing) return;
  // The agent's reply is agent-written text shown on the page: an XSS string.
  // A message asking to fail makes the run fail (the home panel lists its job).
  rig = await startRig({ gateway: { reply: (agentId, message) => (message.includes("please fail") ? { error: "the model is down" } : `Report from ${agentId}: ${XSS}`) } });
  await suiteChrome.open();
});

t.after(async () => {
  if (missing) return;
  await suiteChrome.close();
  await rig.close();
});

const withPage = (path: string, fn: (page: Page) => Promise<void>, viewport?: { width: number; height: number }) => withConsolePage(suiteChrome.browser, rig.h, path, fn, viewport);

async function createJob(body: Record<string, unknown>) {
  const res = await rig.h.json("/api/crons", { method: "POST", body: { agentId: "main", cron: "0 9 * * 1-5", message: "Write the report", ...body } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.job as { id: string; name: string };
}

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("a cron created in the form runs now, and its run and reply appear on the job's page", () =>
    withPage("/console/schedules", async (page) => {
      const form = page.getByRole("form", { name: "New schedule" });
      await form.getByLabel("Name").fill("Weekday report");
      await form.getByLabel("Agent").fill("main");
      await form.getByLabel("Cron expression").fill("30 8 * * 1-5");
      await form.getByLabel("Time zone").fill("Asia/Tokyo");
      await form.getByLabel("Message").fill("Write the weekday report");
      await form.getByRole("button", { name: "Create schedule" }).click();
      // Created: the console moves to the job's own address.
      await page.getByRole("heading", { level: 1, name: "Weekday report" }).waitFor();
      assert.match(page.url(), /\/console\/schedules\/[^/]+$/);
      // Next fire in the job's zone (JST), and in the viewer's when that differs.
      const facts = page.locator(".job-facts");
      assert.match((await facts.textContent())!, /GMT\+9|JST/);
      await page.getByRole("button", { name: "Run now “Weekday report”" }).click();
      const runs = page.getByRole("region", { name: "Recent runs" });
      await runs.getByText("ok", { exact: true }).waitFor();
      assert.match((await runs.textContent())!, /Run now/);
      await runs.getByText(/^Reply \(/).click();
      await runs.getByText(`Report from main: ${XSS}`).waitFor();
      await assertNoXss(page);
      // And recorded through the API, as the page says.
      const jobs = (await rig.h.json("/api/crons")).body.jobs as { id: string; name: string; lastStatus: string }[];
      const job = jobs.find((one) => one.name === "Weekday report")!;
      const stored = (await rig.h.json(`/api/crons/runs?id=${job.id}`)).body.runs as { status: string; trigger: string }[];
      assert.equal(stored.map((run) => [run.trigger, run.status]), [["manual", "ok"]]);
    }));

  t("a bad expression is refused with CRON_INVALID_EXPRESSION and the form keeps what was typed", () =>
    withPage("/console/schedules", async (page) => {
      const form = page.getByRole("form", { name: "New schedule" });
      await form.getByLabel("Name").fill("Broken");
      await form.getByLabel("Agent").fill("main");
      await form.getByLabel("Cron expression").fill("0 9 * * * *");
      await form.getByLabel("Message").fill("never sent");
      await form.getByRole("button", { name: "Create schedule" }).click();
      const alert = form.getByRole("alert");
      await alert.waitFor();
      assert.match((await alert.textContent())!, /^CRON_INVALID_EXPRESSION: /);
      assert.is(await form.getByLabel("Cron expression").inputValue(), "0 9 * * * *");
      // An unknown zone too, with its own code.
      await form.getByLabel("Cron expression").fill("0 9 * * *");
      await form.getByLabel("Time zone").fill("Mars/Olympus");
      await form.getByRole("button", { name: "Create schedule" }).click();
      await form.getByRole("alert").getByText(/^CRON_UNKNOWN_TIME_ZONE: /).waitFor();
      assert.not.ok(((await rig.h.json("/api/crons")).body.jobs as { name: string }[]).some((job) => job.name === "Broken"));
    }));

  t("the list shows agent-written names as text; disable, edit and delete from the job's page", async () => {
    const job = await createJob({ name: `Digest ${XSS}`, message: `Summarise ${XSS}`, timezone: "Europe/Paris" });
    await withPage("/console/schedules", async (page) => {
      const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: `Digest ${XSS}` }) });
      await row.waitFor();
      assert.match((await row.textContent())!, /Europe\/Paris/);
      await row.getByRole("button", { name: `Disable “Digest ${XSS}”` }).click();
      await row.getByText("Disabled").waitFor();
      await assertNoXss(page);
      await row.getByRole("link", { name: `Digest ${XSS}` }).click();
      await page.getByRole("heading", { level: 1, name: `Digest ${XSS}` }).waitFor();
      await page.getByRole("region", { name: "What and when" }).getByText(`Summarise ${XSS}`).waitFor();
      const edit = page.getByRole("form", { name: `Edit “Digest ${XSS}”` });
      await edit.getByLabel("Cron expression").fill("61 * * * *");
      await edit.getByRole("button", { name: "Save changes" }).click();
      await edit.getByRole("alert").getByText(/^CRON_INVALID_EXPRESSION: /).waitFor();
      await edit.getByLabel("Name").fill("Evening digest");
      await edit.getByLabel("Cron expression").fill("0 18 * * *");
      await edit.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("heading", { level: 1, name: "Evening digest" }).waitFor();
      await page.getByRole("button", { name: "Enable “Evening digest”" }).click();
      await page.locator(".job-facts time.next-fire").waitFor();
      await page.getByRole("button", { name: "Delete schedule" }).click();
      await page.getByRole("button", { name: "Yes, delete schedule" }).click();
      await page.getByRole("heading", { level: 1, name: "Schedules" }).waitFor();
      await assertNoXss(page);
    });
    assert.not.ok(((await rig.h.json("/api/crons")).body.jobs as { id: string }[]).some((one) => one.id === job.id));
  });

  t("a job whose run failed is listed on the home page's Failed cron runs panel, linked to its page", async () => {
    const job = await createJob({ name: `Doomed ${XSS}`, message: "please fail" });
    const ran = await rig.h.json("/api/crons", { method: "PATCH", body: { id: job.id, action: "run" } });
    assert.is(ran.status, 202, JSON.stringify(ran.body));
    await withPage("/", async (page) => {
      const panel = page.getByRole("region", { name: "Failed cron runs" });
      const link = panel.getByRole("link", { name: `Doomed ${XSS}` });
      await link.waitFor();
      await panel.getByText("error", { exact: true }).waitFor();
      await assertNoXss(page);
      await link.click();
      await page.getByRole("heading", { level: 1, name: `Doomed ${XSS}` }).waitFor();
      await page.getByRole("region", { name: "Recent runs" }).getByText("error", { exact: true }).waitFor();
    });
    const removed = await rig.h.json(`/api/crons?id=${job.id}`, { method: "DELETE", session: true });
    assert.is(removed.status, 200, JSON.stringify(removed.body));
  });

  t("an unknown job's address says so", () =>
    withPage("/console/schedules/no-such-job", async (page) => {
      await page.getByRole("heading", { level: 1, name: "No such schedule" }).waitFor();
    }));

  t("no serious accessibility violation on the list and a job's page, and usable at 390 px wide", async () => {
    const job = await createJob({ name: "Accessibility check", timezone: "America/New_York" });
    const ran = await rig.h.json("/api/crons", { method: "PATCH", body: { id: job.id, action: "run" } });
    assert.is(ran.status, 202);
    for (const viewport of [undefined, { width: 390, height: 844 }]) {
      await withPage("/console/schedules", async (page) => {
        await page.getByRole("link", { name: "Accessibility check" }).waitFor();
        assert.equal(describeViolations(await seriousViolations(page)), "");
        await assertFitsWidth(page);
      }, viewport);
      await withPage(`/console/schedules/${job.id}`, async (page) => {
        await page.getByRole("region", { name: "Recent runs" }).getByText("ok", { exact: true }).waitFor();
        assert.equal(describeViolations(await seriousViolations(page)), "");
        await assertFitsWidth(page);
      }, viewport);
    }
  });
}

t.run();
