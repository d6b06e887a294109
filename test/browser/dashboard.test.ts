// The dashboard in a real headless Chromium against a real host, signed in through a real
// one-time login link: approving from the inbox moves a task, a workspace write shows up
// live, refused decisions show the API's code, agent-written text stays text, and the
// inbox works from the keyboard.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import { chromiumMissing, signedInPage, waitForDashboard, withBrowser } from "./browser.ts";
import { decideApproval } from "@muster/plugin/testing";

const t = suite("dashboard in a browser");
const missing = chromiumMissing();
const OWNER = "sam";
const XSS = `<img src=x onerror="window.__xss=1">`;

let h: TestHost;
let browser: Browser;
let closeBrowser: () => void;
let browserClosed: Promise<unknown>;

t.before(async () => {
  if (missing) return;
  h = await startTestHost({ config: { owner: OWNER }, env: { VAULT_KEY: "dashboard-test-passphrase" } });
  // One browser for the suite; withBrowser closes it when the suite releases it.
  await new Promise<void>((ready) => {
    browserClosed = withBrowser((b) => {
      browser = b;
      ready();
      return new Promise<void>((release) => (closeBrowser = release));
    });
  });
});

t.after(async () => {
  if (missing) return;
  closeBrowser?.();
  await browserClosed;
  await h.stop();
  removeHome(h.home);
});

async function createTask(title: string, status = "review", fields: Record<string, unknown> = {}) {
  const res = await h.json("/api/tasks", { method: "POST", body: { title, status, ...fields } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; title: string };
}

async function createApproval(fields: Record<string, unknown> = {}) {
  const res = await h.json("/api/approvals", { method: "POST", body: { title: "Publish the post", type: "blog.publish", requestedBy: "writer", context: "ready", ...fields } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.approval as { id: string; title: string };
}

/** The pending task.review approval the review flow opens for a task entering review. */
async function reviewApprovalOf(taskId: string): Promise<string> {
  return waitUntil(async () => {
    const res = await h.json("/api/approvals?pendingLimit=500");
    return (res.body.pending as { id: string; taskId: string; command: string }[]).find((a) => a.taskId === taskId && a.command === "task.review")?.id;
  }, { timeoutMs: 20_000, intervalMs: 50, label: `the task.review approval of task ${taskId}` });
}

const card = (page: Page, id: string) => page.locator(`article.approval[data-id="${id}"]`);

async function withPage(fn: (page: Page) => Promise<void>) {
  const page = await signedInPage(browser, h);
  try {
    await fn(page);
  } finally {
    await page.close();
  }
}

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("signed out, the page explains `muster login`; the login link signs in and leaves no secret in the address bar", async () => {
    const page = await browser.newPage();
    try {
      const { id } = await createApproval({ title: "Signed-out check" });
      await page.goto(`${h.url}/`);
      await page.waitForSelector("body[data-ready='true']");
      assert.ok(await page.locator("#signin-banner").isVisible());
      assert.match((await page.locator("#signin-banner").textContent())!, "muster login");
      assert.is(await page.locator("#signin-state").textContent(), "Not signed in");
      await card(page, id).getByRole("button", { name: "Approve" }).click();
      await card(page, id).locator(".error").getByText("Sign in first").waitFor();

      await page.goto(h.host.loginLink().url);
      await waitForDashboard(page);
      assert.is(page.url(), `${h.url}/`, "the #csrf fragment is removed");
      assert.not.match(await page.evaluate<string>("location.href"), "csrf");
      assert.ok(await page.evaluate<number | undefined>(`sessionStorage.getItem("muster.csrf")?.length`), "kept in sessionStorage");
      assert.ok(await page.locator("#signin-banner").isHidden());
      assert.is(await page.locator("#signin-state").textContent(), "Signed in");
      assert.not.match(await page.content(), await page.evaluate<string>(`sessionStorage.getItem("muster.csrf")`), "the secret is not in the page");
    } finally {
      await page.close();
    }
  });

  t("the page runs under the CSP without a violation or a script error", async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on("pageerror", (error) => void problems.push(error.message));
    try {
      await page.goto(h.host.loginLink().url);
      await waitForDashboard(page);
      // The panels' modules are imported under the same CSP: nothing may be refused or fail.
      await page.getByRole("region", { name: "Vault" }).locator(".panel-body > *").first().waitFor();
      assert.equal(problems, []);
    } finally {
      await page.close();
    }
  });

  t("approving a task's review from the inbox runs it: the approval shows approved and the task moves to done", async () => {
    await withPage(async (page) => {
      // A task entering review gets its task.review approval from the dispatch plugin's review flow.
      const task = await createTask("Review the onboarding emails", "review", { assignedTo: "editor", notes: "Reviewed all five emails." });
      const approvalId = await reviewApprovalOf(task.id);
      const item = card(page, approvalId);
      await item.waitFor();
      assert.match((await item.locator("pre").textContent())!, `"taskId": "${task.id}"`, "the exact payload, pretty-printed");
      assert.match((await item.textContent())!, "Asked by editor");
      await page.locator(`.column.review [data-id="${task.id}"]`).waitFor();

      await item.getByRole("textbox").fill("Looks good");
      await item.getByRole("button", { name: "Approve" }).click();
      await item.locator(".outcome").getByText(`Approved by ${OWNER}`).waitFor();
      await page.locator(`.column.done [data-id="${task.id}"]`).waitFor();
      assert.is(await page.locator(`.column.review [data-id="${task.id}"]`).count(), 0);
      await page.locator("#approvals-history").locator(`[data-id="${approvalId}"] .badge.approved`).waitFor({ state: "attached" });

      const stored = await h.json(`/api/approvals/${approvalId}`);
      assert.is(stored.body.approval.status, "approved");
      assert.is(stored.body.approval.reason, "Looks good");
      assert.is(stored.body.approval.executionStatus, "succeeded");
    });
  });

  t("a workspace write appears in the live feed", async () => {
    await withPage(async (page) => {
      mkdirSync(join(h.workspace, "memory"), { recursive: true });
      writeFileSync(join(h.workspace, "memory", "live-feed-check.md"), "# notes\n");
      await page.locator("#feed-list .entry.file").getByText("memory/live-feed-check.md").waitFor();
    });
  });

  t("refused decisions show the API's error code: already decided, and the requester deciding its own request", async () => {
    const decidedMeanwhile = await createApproval({ title: "Decided elsewhere" });
    const own = await createApproval({ title: "My own request", requestedBy: OWNER });
    await withPage(async (page) => {
      // Someone decides from the CLI just before the page's request reaches the server.
      await page.route(`**/api/approvals/${decidedMeanwhile.id}`, async (route) => {
        if (route.request().method() === "PATCH") {
          const cli = await decideApproval(h, decidedMeanwhile.id, "rejected");
          assert.is(cli.status, 200);
        }
        await route.continue();
      });
      await card(page, decidedMeanwhile.id).getByRole("button", { name: "Approve" }).click();
      await card(page, decidedMeanwhile.id).locator(".error").getByText("APPROVAL_ALREADY_RESOLVED").waitFor();
      assert.is(await card(page, decidedMeanwhile.id).locator(".outcome").textContent(), "");
      // The refusal stays on screen after the inbox refreshes, until dismissed.
      await page.locator("#approvals-history").locator(`[data-id="${decidedMeanwhile.id}"]`).waitFor({ state: "attached" });
      assert.ok(await card(page, decidedMeanwhile.id).locator(".error").isVisible());
      await card(page, decidedMeanwhile.id).getByRole("button", { name: "Dismiss" }).click();
      await card(page, decidedMeanwhile.id).waitFor({ state: "detached" });

      await card(page, own.id).getByRole("button", { name: "Reject" }).click();
      await card(page, own.id).locator(".error").getByText("APPROVAL_SELF_DECISION").waitFor();
      assert.ok(await card(page, own.id).getByRole("button", { name: "Reject" }).isEnabled(), "the buttons come back after a refusal");
    });
    assert.is((await h.json(`/api/approvals/${decidedMeanwhile.id}`)).body.approval.status, "rejected", "the earlier decision stands");
    assert.is((await h.json(`/api/approvals/${own.id}`)).body.approval.status, "pending");
  });

  t("agent-written text stays text: task titles, activities, approvals, payloads and file names", async () => {
    const task = await createTask(XSS, "backlog");
    await h.json("/api/activities", { method: "POST", body: { agentId: "mallory", action: "note", target: XSS, details: `<script>window.__xss=2</script>` } });
    const approval = await createApproval({ title: XSS, context: XSS, payload: { html: XSS } });
    await withPage(async (page) => {
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      mkdirSync(join(h.workspace, "memory"), { recursive: true });
      writeFileSync(join(h.workspace, "memory", "<b>bold<b>.md"), "x");
      await page.locator("#feed-list").getByText("memory/<b>bold<b>.md").first().waitFor();
      assert.is(await page.locator(`[data-id="${task.id}"] .task-title`).textContent(), XSS);
      assert.is(await card(page, approval.id).locator("h3").textContent(), XSS);
      assert.match((await card(page, approval.id).locator("pre").textContent())!, "<img src=x");
      await page.locator("#feed-list").getByText("<script>window.__xss=2</script>").waitFor();
      assert.is(await page.locator("img[src='x'], script:not([src]), b").count(), 0, "no element was made from agent text");
      assert.is(await page.evaluate<unknown>("window.__xss"), undefined);
      assert.equal(dialogs, []);
    });
  });

  t("keyboard: Tab reaches the reason, Approve and Reject; Enter activates", async () => {
    const approval = await createApproval({ title: "Keyboard decision" });
    await withPage(async (page) => {
      const item = card(page, approval.id);
      await item.waitFor();
      // Which control of this card has the focus, as `input:reason` or `button:Approve`.
      const focusedInCard = () =>
        page.evaluate<string>(`(() => {
          const active = document.activeElement;
          if (!active?.closest('article[data-id="${approval.id}"]')) return active?.tagName ?? "";
          return active.tagName.toLowerCase() + ":" + (active.tagName === "INPUT" ? active.name : active.textContent);
        })()`);
      let reached = "";
      for (let presses = 0; presses < 60 && reached !== "input:reason"; presses++) {
        await page.keyboard.press("Tab");
        reached = await focusedInCard();
      }
      assert.is(reached, "input:reason", "Tab reaches the card's reason field");
      await page.keyboard.type("Not this week");
      await page.keyboard.press("Tab");
      assert.is(await focusedInCard(), "button:Approve");
      await page.keyboard.press("Tab");
      assert.is(await focusedInCard(), "button:Reject");
      await page.keyboard.press("Enter");
      await item.locator(".outcome").getByText(`Rejected by ${OWNER}`).waitFor();
    });
    const stored = (await h.json(`/api/approvals/${approval.id}`)).body.approval;
    assert.is(stored.status, "rejected");
    assert.is(stored.reason, "Not this week");
  });

  t("the plugins' panels: vault names are listed, never values, and follow vault events; agent health and usage have their regions", async () => {
    await withPage(async (page) => {
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
}

t.run();
