// The console's home page in a real headless Chromium against a real host: a workspace write
// shows up live in the feed, the attention panels (pending approvals, failed cron runs, agent
// health, vault names, usage) light up from the plugins that contribute them, agent-written
// text stays text, axe finds nothing serious, and the page fits 390 px.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import { suiteBrowser } from "./console-suite.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, openConsole, seriousViolations, waitForConsole } from "./console.ts";

const t = suite("console: home in a browser");
const missing = chromiumMissing();
const XSS = `<img src=x onerror="window.__xss=1">`;

let h: TestHost;
/** One browser for the suite (console-suite.ts). */
const shared = suiteBrowser();

t.before(async () => {
  if (missing) return;
  h = await startTestHost({ env: { VAULT_KEY: "console-home-test-passphrase" } });
  await shared.open();
});

t.after(async () => {
  if (missing) return;
  await shared.close();
  await h.stop();
  removeHome(h.home);
});

async function createApproval(fields: Record<string, unknown> = {}) {
  const res = await h.json("/api/approvals", { method: "POST", body: { title: "Publish the post", type: "blog.publish", requestedBy: "writer", context: "ready", ...fields } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.approval as { id: string; title: string };
}

async function withHome(fn: (page: Page) => Promise<void>, viewport?: { width: number; height: number }) {
  const page = await openConsole(shared.browser, h, "/", viewport);
  try {
    await fn(page);
  } finally {
    await page.close();
  }
}

/** A cron job run now on a host without a gateway: the run ends in an error. */
async function failedCronRun(name: string): Promise<void> {
  // Any agent of the crew (the test host's organisation file); the run fails for want of a gateway.
  const agentId = ((await h.json("/api/agents")).body.agents as { id: string }[])[0]!.id;
  const created = await h.json("/api/crons", { method: "POST", body: { name, agentId, cron: "0 9 * * *", message: "Write the morning report" } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const id = created.body.job.id as string;
  assert.is((await h.json("/api/crons", { method: "PATCH", body: { id, action: "run" } })).status, 202);
  await waitUntil(async () => (await h.json(`/api/crons/runs?id=${id}`)).body.runs[0]?.status === "error", { timeoutMs: 20_000, label: "the run failed" });
}

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("the home page runs under the CSP without a violation or a script error, every panel drawn", async () => {
    const page = await shared.browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on("pageerror", (error) => void problems.push(error.message));
    try {
      await page.goto(h.host.loginLink().url);
      await waitForConsole(page);
      // The panels' modules are imported under the same CSP: nothing may be refused or fail.
      for (const name of ["Pending approvals", "Failed sends", "Failed cron runs", "Agent health", "Vault"]) {
        await page.getByRole("region", { name }).locator(".panel-body > *").first().waitFor();
      }
      assert.is(await page.locator(".plugin-panel [role='alert']").count(), 0, "no panel failed");
      assert.equal(problems, []);
    } finally {
      await page.close();
    }
  });

  t("a workspace write appears in the live feed", async () => {
    await withHome(async (page) => {
      mkdirSync(join(h.workspace, "memory"), { recursive: true });
      writeFileSync(join(h.workspace, "memory", "live-feed-check.md"), "# notes\n");
      await page.locator("#feed-list .entry.file").getByText("memory/live-feed-check.md").waitFor();
    });
  });

  t("Pending approvals: the count and the first few, each linking to its page in the inbox; live", async () => {
    await withHome(async (page) => {
      const panel = page.getByRole("region", { name: "Pending approvals" });
      await panel.getByText(/waiting/).first().waitFor();
      const approval = await createApproval({ title: "Wire the invoice" });
      const link = panel.getByRole("link", { name: "Wire the invoice" });
      await link.waitFor();
      const total = (await h.json("/api/approvals")).body.pendingTotal as number;
      await panel.getByText(`${total} waiting`).waitFor();
      assert.is(await link.getAttribute("href"), `/console/approvals/${approval.id}`);
      await link.click();
      await page.waitForURL(`**/console/approvals/${approval.id}`);
      await page.locator(`article.approval[data-id="${approval.id}"]`).waitFor();
    });
  });

  t("Failed cron runs: a run that failed is listed with its job and error", async () => {
    await failedCronRun("Nightly digest");
    await withHome(async (page) => {
      const panel = page.getByRole("region", { name: "Failed cron runs" });
      const row = panel.locator("li[data-status='error']").filter({ hasText: "Nightly digest" });
      await row.waitFor();
      assert.match((await row.textContent())!, "error");
    });
  });

  t("Failed sends: with none, the panel says so", async () => {
    await withHome(async (page) => {
      await page.getByRole("region", { name: "Failed sends" }).getByText("No failed or unknown sends.").waitFor();
    });
  });

  t("vault names are listed, never values, and follow vault events; agent health and usage have their regions", async () => {
    await withHome(async (page) => {
      const vault = page.getByRole("region", { name: "Vault" });
      await vault.getByText("Names only").waitFor();
      // Stored after the page loaded: the panel names vault.secret.* as its events.
      const res = await h.json("/api/vault", { method: "POST", body: { name: "BROWSER_CHECK_KEY", value: "value-that-must-not-show" } });
      assert.is(res.status, 201, JSON.stringify(res.body));
      await vault.getByText("BROWSER_CHECK_KEY").waitFor();
      assert.not.match(await page.content(), "value-that-must-not-show");
      // Test hosts run without a gateway: the crew is known, the gateway disabled.
      await page.getByRole("region", { name: "Agent health" }).getByText("disabled").waitFor();
      await page.getByRole("region", { name: "Usage today" }).getByText("Estimated cost").waitFor();
      assert.is(await page.locator(".plugin-panel [role='alert']").count(), 0, "no panel failed");
    });
  });

  t("agent-written text stays text: activities, file names, approval titles and cron job names", async () => {
    await h.json("/api/activities", { method: "POST", body: { agentId: "mallory", action: "note", target: XSS, details: `<script>window.__xss=2</script>` } });
    await createApproval({ title: XSS, requestedBy: XSS });
    await failedCronRun(XSS);
    await withHome(async (page) => {
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      mkdirSync(join(h.workspace, "memory"), { recursive: true });
      writeFileSync(join(h.workspace, "memory", "<b>bold<b>.md"), "x");
      await page.locator("#feed-list").getByText("memory/<b>bold<b>.md").first().waitFor();
      await page.locator("#feed-list").getByText("<script>window.__xss=2</script>").waitFor();
      await page.getByRole("region", { name: "Pending approvals" }).getByRole("link", { name: XSS }).waitFor();
      await page.getByRole("region", { name: "Failed cron runs" }).getByText(XSS).waitFor();
      assert.is(await page.locator("img[src='x'], script:not([src]):not([type=importmap]), main b").count(), 0, "no element was made from agent text");
      assert.is(await page.evaluate<unknown>("window.__xss"), undefined);
      assert.equal(dialogs, []);
    });
  });

  t("accessibility: no serious or critical axe violation on the home page with its panels drawn", async () => {
    await withHome(async (page) => {
      for (const name of ["Pending approvals", "Failed cron runs", "Agent health", "Vault"]) {
        await page.getByRole("region", { name }).locator(".panel-body > *").first().waitFor();
      }
      await page.locator("#feed-list li").first().waitFor();
      assert.equal(describeViolations(await seriousViolations(page)), "");
    });
  });

  t("390 px wide: the home page fits without a horizontal scroll", async () => {
    await withHome(async (page) => {
      await page.getByRole("region", { name: "Pending approvals" }).locator(".panel-body > *").first().waitFor();
      await page.getByRole("region", { name: "Failed cron runs" }).locator(".panel-body > *").first().waitFor();
      await page.locator("#feed-list li").first().waitFor();
      assert.ok(await page.evaluate<boolean>("document.documentElement.scrollWidth <= 390"), `${await page.evaluate<number>("document.documentElement.scrollWidth")} px wide`);
    }, { width: 390, height: 844 });
  });
}

t.run();
