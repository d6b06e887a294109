// The Approvals page in a real headless Chromium against a real host, signed in through a real
// one-time login link: approving a task's review from the inbox moves the task, a rejection
// needs a reason, refused decisions show the API's code, payloads stay collapsed, filters and
// history search, the page of one approval, live arrivals, agent-written text stays text, the
// inbox works from the keyboard, axe finds nothing serious, and the page fits 390 px.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { decideApproval } from "@muster/plugin/testing";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import { scaled } from "../helpers/time-scale.ts";
import { suiteBrowser } from "./console-suite.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, openConsole, seriousViolations, waitForConsole } from "./console.ts";

const t = suite("console: approvals in a browser");
const missing = chromiumMissing();
const OWNER = "sam";
const XSS = `<img src=x onerror="window.__xss=1">`;
const INBOX = "/console/approvals";

let h: TestHost;
/** One browser for the suite (console-suite.ts). */
const shared = suiteBrowser();

t.before(async () => {
  if (missing) return;
  h = await startTestHost({ config: { owner: OWNER }, env: { VAULT_KEY: "console-approvals-test-passphrase" } });
  // One browser for the suite (console-suite.ts), closed in after.
  await shared.open();
});

t.after(async () => {
  if (missing) return;
  await shared.close();
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

const stored = async (id: string) => (await h.json(`/api/approvals/${id}`)).body.approval;

/** The pending task.review approval the review flow opens for a task entering review. */
async function reviewApprovalOf(taskId: string): Promise<string> {
  return waitUntil(async () => {
    const res = await h.json("/api/approvals?pendingLimit=500");
    return (res.body.pending as { id: string; taskId: string; command: string }[]).find((a) => a.taskId === taskId && a.command === "task.review")?.id;
  }, { timeoutMs: 20_000, intervalMs: 50, label: `the task.review approval of task ${taskId}` });
}

const card = (page: Page, id: string) => page.locator(`article.approval[data-id="${id}"]`);

async function withPage(fn: (page: Page) => Promise<void>, path = INBOX, viewport?: { width: number; height: number }) {
  const page = await openConsole(shared.browser, h, path, viewport);
  try {
    await fn(page);
  } finally {
    await page.close();
  }
}

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("Approvals is the first page of the navigation", async () => {
    await withPage(async (page) => {
      const first = page.locator("#console-nav .nav-group a").first();
      assert.is(await first.textContent(), "Approvals");
      assert.is(await first.getAttribute("href"), INBOX);
      assert.is(await first.getAttribute("aria-current"), "page");
      assert.is(await page.locator("h1").textContent(), "Approvals");
    });
  });

  t("signed out, the inbox says to sign in instead of deciding; the login link signs in and leaves no secret in the address bar", async () => {
    const page = await shared.browser.newPage();
    page.setDefaultTimeout(scaled(20_000));
    try {
      const { id } = await createApproval({ title: "Signed-out check" });
      await page.goto(`${h.url}${INBOX}`);
      await page.waitForSelector("body[data-ready='true']");
      assert.ok(await page.locator("#signin-banner").isVisible());
      assert.match((await page.locator("#signin-banner").textContent())!, "muster login");
      assert.is(await page.locator("#signin-state").textContent(), "Not signed in");
      await card(page, id).getByRole("button", { name: "Approve" }).click();
      await card(page, id).locator(".error").getByText("Sign in first").waitFor();
      assert.is((await stored(id)).status, "pending");

      await page.goto(h.host.loginLink().url);
      await waitForConsole(page);
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
    const page = await shared.browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on("pageerror", (error) => void problems.push(error.message));
    try {
      await createApproval({ title: "Under the CSP" });
      await page.goto(h.host.loginLink().url);
      await waitForConsole(page);
      await page.goto(`${h.url}${INBOX}`);
      await waitForConsole(page);
      await page.locator("article.approval").first().waitFor();
      await page.locator("article.approval").first().locator("summary").click();
      await page.locator("article.approval").first().locator(".exact-payload, .hint").first().waitFor();
      assert.equal(problems, []);
    } finally {
      await page.close();
    }
  });

  t("approving a task's review from the inbox runs it: the approval shows approved, its action ran, and the task is done", async () => {
    await withPage(async (page) => {
      // A task entering review gets its task.review approval from the dispatch plugin's review flow.
      const task = await createTask("Review the onboarding emails", "review", { assignedTo: "editor", notes: "Reviewed all five emails." });
      const approvalId = await reviewApprovalOf(task.id);
      const item = card(page, approvalId);
      await item.waitFor();
      assert.match((await item.textContent())!, "Asked by editor");
      assert.is(await item.locator("details.payload").getAttribute("open"), null, "the payload is collapsed");
      await item.locator("summary").click();
      await item.locator("pre").waitFor();
      assert.match((await item.locator("pre").textContent())!, `"taskId": "${task.id}"`, "the exact payload, pretty-printed");

      await item.getByRole("textbox", { name: /Reason for/ }).fill("Looks good");
      await item.getByRole("button", { name: "Approve" }).click();
      await item.locator(".outcome").getByText(`Approved by ${OWNER} · “Looks good”`).waitFor();
      await item.locator("[data-execution='succeeded']").getByText("action ran").waitFor();
      assert.is(await item.getByText("succeeded").count(), 0, "the page says the action ran, not that it succeeded");
      await page.locator("#approvals-history").locator(`[data-id="${approvalId}"] .badge.ok`).getByText("approved").waitFor();
      await waitUntil(async () => (await h.json(`/api/tasks/${task.id}`)).body.status === "done", { timeoutMs: 20_000, label: "the task moved to done" });

      const after = await stored(approvalId);
      assert.is(after.status, "approved");
      assert.is(after.reason, "Looks good");
      assert.is(after.executionStatus, "succeeded");
      // The outcome stays until dismissed; dismissing takes the card away.
      await item.getByRole("button", { name: "Dismiss" }).click();
      await item.waitFor({ state: "detached" });
    });
  });

  t("a rejection needs a reason: Reject with none says so, focuses the reason, and sends nothing; with one it rejects", async () => {
    const approval = await createApproval({ title: "Reject me properly" });
    await withPage(async (page) => {
      const item = card(page, approval.id);
      await item.getByRole("button", { name: "Reject" }).click();
      await item.locator(".error").getByText("A rejection needs a reason").waitFor();
      const reason = item.getByRole("textbox", { name: /Reason for/ });
      assert.is(await reason.getAttribute("aria-invalid"), "true");
      assert.ok(await reason.evaluate((el) => el === (el as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement), "the reason field has the focus");
      assert.is((await stored(approval.id)).status, "pending", "nothing was sent");
      await reason.fill("   ");
      await item.getByRole("button", { name: "Reject" }).click();
      await item.locator(".error").getByText("A rejection needs a reason").waitFor();
      assert.is((await stored(approval.id)).status, "pending", "blanks are no reason");
      await reason.fill("Not before the launch");
      await item.getByRole("button", { name: "Reject" }).click();
      await item.locator(".outcome").getByText(`Rejected by ${OWNER} · “Not before the launch”`).waitFor();
    });
    const after = await stored(approval.id);
    assert.is(after.status, "rejected");
    assert.is(after.reason, "Not before the launch");
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
      assert.is(await card(page, decidedMeanwhile.id).locator(".outcome").count(), 0, "no outcome is claimed");
      // The refusal stays on screen after the inbox refreshes, until dismissed.
      await page.locator("#approvals-history").locator(`[data-id="${decidedMeanwhile.id}"]`).waitFor({ state: "attached" });
      assert.ok(await card(page, decidedMeanwhile.id).locator(".error").isVisible());
      assert.is(await card(page, decidedMeanwhile.id).getAttribute("data-state"), "refused");
      await card(page, decidedMeanwhile.id).getByRole("button", { name: "Dismiss" }).click();
      await card(page, decidedMeanwhile.id).waitFor({ state: "detached" });

      await card(page, own.id).getByRole("textbox", { name: /Reason for/ }).fill("no");
      await card(page, own.id).getByRole("button", { name: "Reject" }).click();
      await card(page, own.id).locator(".error").getByText("APPROVAL_SELF_DECISION").waitFor();
      assert.ok(await card(page, own.id).getByRole("button", { name: "Reject" }).isEnabled(), "the buttons come back after a refusal");
    });
    assert.is((await stored(decidedMeanwhile.id)).status, "rejected", "the earlier decision stands");
    assert.is((await stored(own.id)).status, "pending");
  });

  t("eight pending approvals with large payloads: each is one compact card, details on demand", async () => {
    const big = { body: "lorem ipsum ".repeat(400), lines: Array.from({ length: 60 }, (_, i) => `line ${i}`) };
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await createApproval({ title: `Bulky request ${i}`, type: "bulk.send", context: "context ".repeat(300), payload: big })).id);
    await withPage(async (page) => {
      for (const id of ids) await card(page, id).waitFor();
      for (const id of ids) {
        const box = await card(page, id).boundingBox();
        assert.ok(box && box.height < 200, `card ${id} is ${box?.height} px tall`);
      }
      assert.is(await page.locator("#approvals-list pre:visible").count(), 0, "no payload is drawn expanded");
      await card(page, ids[3]!).locator("summary").click();
      await card(page, ids[3]!).locator("pre").getByText("line 59").waitFor();
    });
  });

  t("filters by kind and requester and the history search narrow the lists, and are kept in the address", async () => {
    const deploy = await createApproval({ title: "Deploy the site", type: "site.deploy", requestedBy: "ops" });
    const mail = await createApproval({ title: "Mail the list", type: "newsletter.send", requestedBy: "writer" });
    const old = await createApproval({ title: "Rotate the staging key", type: "infra.rotate", requestedBy: "ops" });
    assert.is((await decideApproval(h, old.id, "approved")).status, 200);
    await withPage(async (page) => {
      await card(page, mail.id).waitFor();
      await page.getByLabel("Kind").selectOption("site.deploy");
      await card(page, mail.id).waitFor({ state: "detached" });
      assert.ok(await card(page, deploy.id).isVisible());
      assert.match(page.url(), "kind=site.deploy");
      await page.getByLabel("Kind").selectOption("");
      await page.getByLabel("Requested by").selectOption("writer");
      await card(page, deploy.id).waitFor({ state: "detached" });
      assert.ok(await card(page, mail.id).isVisible());
      await page.getByLabel("Requested by").selectOption("");

      const history = page.locator("#approvals-history");
      await history.locator(`[data-id="${old.id}"]`).waitFor();
      await page.getByRole("searchbox", { name: "Search" }).fill("staging key");
      await waitUntil(async () => (await history.locator("li").count()) === 1, { timeoutMs: 10_000, label: "the search narrows the history" });
      assert.ok(await history.locator(`[data-id="${old.id}"]`).isVisible());
      assert.match(page.url(), "q=staging");
      await page.reload();
      await waitForConsole(page);
      assert.is(await page.getByRole("searchbox", { name: "Search" }).inputValue(), "staging key", "a reload keeps the search");
      await page.locator("#approvals-history li").first().waitFor();
      assert.is(await page.locator("#approvals-history li").count(), 1);
    });
  });

  t("/console/approvals/<id> opens one approval with its payload; decided there, it shows the outcome", async () => {
    const approval = await createApproval({ title: "Open me by link", payload: { list: "customers", subject: "Hello" } });
    await withPage(async (page) => {
      const item = card(page, approval.id);
      await item.waitFor();
      assert.is(await page.locator("h1").textContent(), "Approval");
      assert.is(await item.locator("details.payload").getAttribute("open"), "");
      assert.match((await item.locator("pre").textContent())!, `"subject": "Hello"`);
      await item.getByRole("button", { name: "Approve" }).click();
      await item.locator(".outcome").getByText(`Approved by ${OWNER}`).waitFor();
      await page.getByRole("link", { name: "Back to the inbox" }).click();
      await page.locator("#approvals-history").locator(`[data-id="${approval.id}"]`).waitFor();
      // From the history, the title links back to the approval's page.
      await page.locator("#approvals-history").locator(`[data-id="${approval.id}"] a`).first().click();
      await page.waitForURL(`**${INBOX}/${approval.id}`);
      await card(page, approval.id).locator(".outcome").getByText(`Approved by ${OWNER}`).waitFor();
    }, `${INBOX}/${approval.id}`);
    const unknown = await openConsole(shared.browser, h, `${INBOX}/no-such-approval`);
    try {
      await unknown.locator(".error").getByText("APPROVAL_NOT_FOUND").waitFor();
    } finally {
      await unknown.close();
    }
  });

  t("an approval requested while the page is open appears live", async () => {
    await withPage(async (page) => {
      await page.locator("#approvals-count").getByText(/waiting|nothing/).waitFor();
      const fresh = await createApproval({ title: "Arrived while watching" });
      await card(page, fresh.id).waitFor();
    });
  });

  t("agent-written text stays text: titles, requesters, context, payloads, reasons", async () => {
    const approval = await createApproval({ title: XSS, requestedBy: XSS, context: XSS, payload: { html: XSS } });
    const decided = await createApproval({ title: `decided ${XSS}` });
    assert.is((await h.json(`/api/approvals/${decided.id}`, { method: "PATCH", session: true, body: { status: "rejected", reason: XSS } })).status, 200);
    await withPage(async (page) => {
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const item = card(page, approval.id);
      await item.waitFor();
      assert.is(await item.locator("h3").textContent(), XSS);
      assert.match((await item.locator(".meta").first().textContent())!, XSS);
      await item.locator("summary").click();
      await item.locator(".context").waitFor();
      assert.is(await item.locator(".context").textContent(), XSS);
      assert.match((await item.locator("pre").textContent())!, "<img src=x");
      await page.locator("#approvals-history").locator(`[data-id="${decided.id}"]`).getByText(XSS).first().waitFor();
      await page.getByLabel("Requested by").selectOption(XSS);
      await card(page, approval.id).waitFor();
      assert.is(await page.locator("img[src='x'], script:not([src]):not([type=importmap])").count(), 0, "no element was made from agent text");
      assert.is(await page.evaluate<unknown>("window.__xss"), undefined);
      assert.equal(dialogs, []);
    });
  });

  t("keyboard only: Tab reaches the reason, Approve and Reject; Enter activates; the outcome's Dismiss takes the focus", async () => {
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
      for (let presses = 0; presses < 120 && reached !== "input:reason"; presses++) {
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
      await waitUntil(async () => (await focusedInCard()) === "button:Dismiss", { timeoutMs: 10_000, label: "the focus moves to Dismiss" });
    });
    const after = await stored(approval.id);
    assert.is(after.status, "rejected");
    assert.is(after.reason, "Not this week");
  });

  t("keyboard only: the details of a card open with Enter on their summary", async () => {
    const approval = await createApproval({ title: "Open with the keyboard", payload: { keyboard: true } });
    await withPage(async (page) => {
      const item = card(page, approval.id);
      await item.waitFor();
      let onSummary = false;
      for (let presses = 0; presses < 120 && !onSummary; presses++) {
        await page.keyboard.press("Tab");
        onSummary = await page.evaluate<boolean>(`document.activeElement?.tagName === "SUMMARY" && !!document.activeElement.closest('article[data-id="${approval.id}"]')`);
      }
      assert.ok(onSummary, "Tab reaches the card's details");
      await page.keyboard.press("Enter");
      await item.locator("pre").getByText(`"keyboard": true`).waitFor();
    });
  });

  t("accessibility: no serious or critical axe violation on the inbox (a card open, one decided) and on an approval's page", async () => {
    const open = await createApproval({ title: "Check my accessibility", payload: { a: 1 } });
    await withPage(async (page) => {
      await card(page, open.id).locator("summary").click();
      await card(page, open.id).locator("pre").waitFor();
      await page.locator("#approvals-history li").first().waitFor();
      assert.equal(describeViolations(await seriousViolations(page)), "");
    });
    await withPage(async (page) => {
      await card(page, open.id).locator("pre").waitFor();
      assert.equal(describeViolations(await seriousViolations(page)), "");
    }, `${INBOX}/${open.id}`);
  });

  t("390 px wide: the inbox and an approval's page fit without a horizontal scroll, and Approve is in view", async () => {
    const approval = await createApproval({ title: "A long title that has to wrap on a narrow phone screen without pushing anything sideways", requestedBy: "a-requester-with-a-very-long-name", payload: { url: "https://example.com/" + "x".repeat(300) } });
    for (const path of [INBOX, `${INBOX}/${approval.id}`]) {
      await withPage(async (page) => {
        const item = card(page, approval.id);
        await item.waitFor();
        if (path === INBOX) await item.locator("summary").click();
        await item.locator("pre").waitFor();
        assert.ok(await page.evaluate<boolean>("document.documentElement.scrollWidth <= 390"), `${path}: ${await page.evaluate<number>("document.documentElement.scrollWidth")} px wide`);
        const approve = await item.getByRole("button", { name: "Approve" }).boundingBox();
        assert.ok(approve && approve.x >= 0 && approve.x + approve.width <= 390, `${path}: Approve at ${JSON.stringify(approve)}`);
      }, path, { width: 390, height: 844 });
    }
  });
}

t.run();
