// The Outside console pages in a real Chromium against a real host: Publishing (a draft
// composed with the live limits preview goes to approval, its approval is shown with its link,
// and once approved its outbox rows appear: `published`, and `unknown` shown as unknown, never
// as success; a refusal with its code), the Terminal (an allowed command's output, a refusal
// with TERMINAL_COMMAND_BLOCKED, the history), Git (a change in the status, a commit, a push
// request as an approval), agent-written text as text, the accessibility check and 390 px.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { decideApproval } from "@muster/plugin/testing";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { scaled } from "../helpers/time-scale.ts";
import { LINKEDIN_TOKEN_VALUE, startLinkedInFake, type LinkedInFake } from "../helpers/platform-fakes/linkedin.ts";
import { publishingOptions, setSecret } from "../plugins/publishing/helpers.ts";
import { createRepos, git, plantConfig, tempBase, type Repos } from "../plugins/git/helpers.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, seriousViolations } from "./console.ts";
import { assertNoXss as noXss, startSuiteBrowser, XSS, type StartedSuiteBrowser } from "./console-suite.ts";

const t = suite("console: outside");
const missing = chromiumMissing();

let h: TestHost;
let li: LinkedInFake;
let repos: Repos;
let browser: StartedSuiteBrowser;

t.before(async () => {
  if (missing) return;
  li = await startLinkedInFake();
  // The workspace is a git repository with a remote, so the Git page has something to show.
  repos = createRepos(tempBase("muster-console-outside-"));
  h = await startTestHost(publishingOptions({ linkedin: li.url }, { requestTimeoutMs: scaled(500), maxAttempts: 2 }, { workspace: repos.work }));
  await setSecret(h, "LINKEDIN_ACCESS_TOKEN", LINKEDIN_TOKEN_VALUE);
  await setSecret(h, "LINKEDIN_PERSON_URN", "urn:li:person:782bbtaQ");
  browser = await startSuiteBrowser();
});

t.after(async () => {
  if (missing) return;
  await browser?.close();
  await h.stop();
  await li.close();
  removeHome(h.home);
  rmSync(repos.base, { recursive: true, force: true });
});

const withPage = (path: string, fn: (page: Page) => Promise<void>, viewport?: { width: number; height: number }) => browser.withPage(h, path, fn, viewport);

const section = (page: Page, title: string) => page.locator("section", { has: page.getByRole("heading", { level: 2, name: title }) });

async function composeAndSend(page: Page, text: string): Promise<string> {
  const form = page.getByRole("form", { name: "Compose a draft" });
  await form.getByLabel("Text").fill(text);
  await form.getByRole("checkbox", { name: "LinkedIn" }).check();
  await form.getByRole("button", { name: "Save draft" }).click();
  const drafts = section(page, "Drafts");
  const send = drafts.getByRole("button", { name: `Send for approval: ${text}` });
  await send.click();
  // The draft's row names its approval once it is in review; the notice above the list shows the same one.
  const row = drafts.locator("tr", { hasText: text });
  await row.getByText("review").waitFor();
  const id = (await row.locator('a[href^="/console/approvals/"]').getAttribute("href"))!.replace("/console/approvals/", "");
  await drafts.getByRole("link", { name: `Open approval ${id}` }).waitFor();
  return id;
}

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("publishing: the preview counts against each platform's limit as the text is typed", async () => {
    await withPage("/console/publishing", async (page) => {
      await page.getByRole("heading", { level: 1, name: "Publishing" }).waitFor();
      const form = page.getByRole("form", { name: "Compose a draft" });
      await form.getByRole("checkbox", { name: "X" }).check();
      await form.getByRole("checkbox", { name: "LinkedIn" }).check();
      await form.getByLabel("Text").fill("x".repeat(300));
      const x = form.locator('li[data-platform="x"]');
      await x.getByText("300 / 280 characters").waitFor();
      await x.getByText("over the limit").waitFor();
      await form.locator('li[data-platform="linkedin"]').getByText("fits").waitFor();
      // X has no vault secret: the preview says so, and sending it is refused with the code.
      await x.getByText("not configured").waitFor();
      await form.getByLabel("Title").fill("Too long for X");
      await form.getByRole("button", { name: "Save draft" }).click();
      const drafts = section(page, "Drafts");
      await drafts.getByRole("button", { name: "Send for approval: Too long for X" }).click();
      await drafts.getByRole("alert").getByText("PUBLISH_NOT_CONFIGURED").waitFor();
      assert.equal(describeViolations(await seriousViolations(page)), "");
    });
  });

  t("publishing: a draft goes to approval and its outbox row appears; a lost answer shows as unknown, not success", async () => {
    await withPage("/console/publishing", async (page) => {
      const text = `Hello ${XSS}`;
      li.planPosts("hang");
      const lost = await composeAndSend(page, `${text} (lost)`);
      const approval = await h.json(`/api/approvals/${lost}`);
      assert.is(approval.body.approval.command, "publishing.publish");
      assert.is((await decideApproval(h, lost, "approved")).status, 200);
      const outbox = section(page, "Outbox");
      const lostRow = outbox.locator("tr", { has: page.locator(`a[href="/console/approvals/${lost}"]`) });
      await lostRow.getByText("unknown: may or may not be posted").waitFor({ timeout: scaled(30_000) });
      assert.not.match(await lostRow.innerText(), /\bpublished\b/);

      const sent = await composeAndSend(page, `${text} (sent)`);
      assert.is((await decideApproval(h, sent, "approved")).status, 200);
      const sentRow = outbox.locator("tr", { has: page.locator(`a[href="/console/approvals/${sent}"]`) });
      await sentRow.getByText("published").waitFor({ timeout: scaled(30_000) });
      assert.match(await sentRow.innerText(), "linkedin");
      await noXss(page);
      assert.match(await outbox.innerText(), XSS);
      assert.equal(describeViolations(await seriousViolations(page)), "");
    });
  });

  t("terminal: an allowed command's output shows; a blocked one shows its code; both are in the history", async () => {
    writeFileSync(join(repos.work, XSS), "agent-written\n");
    await withPage("/console/terminal", async (page) => {
      await page.getByRole("heading", { level: 1, name: "Terminal" }).waitFor();
      const form = page.getByRole("form", { name: "Run a command" });
      await form.getByLabel("Command").fill("ls");
      await form.getByRole("button", { name: "Run command" }).click();
      const output = page.getByLabel("Command output");
      await output.waitFor();
      assert.match(await output.innerText(), XSS);
      assert.match(await page.locator(".terminal-result").innerText(), "Exit code 0");
      await noXss(page);

      await form.getByLabel("Command").fill("rm -rf file.txt");
      await form.getByRole("button", { name: "Run command" }).click();
      await form.getByRole("alert").getByText("TERMINAL_COMMAND_BLOCKED").waitFor();
      const history = section(page, "History");
      await history.getByText("TERMINAL_COMMAND_BLOCKED").waitFor();
      await history.getByText("exit 0").waitFor();
      await history.getByRole("button", { name: "Use again: ls" }).click();
      assert.is(await form.getByLabel("Command").inputValue(), "ls");
      assert.equal(describeViolations(await seriousViolations(page)), "");
    });
  });

  t("git: a change shows in the status, a commit is made, a push is requested through an approval", async () => {
    writeFileSync(join(repos.work, "notes.md"), "# Notes\n");
    await withPage("/console/git", async (page) => {
      await page.getByRole("heading", { level: 1, name: "Git" }).waitFor();
      const status = section(page, "Status");
      await status.getByRole("cell", { name: "notes.md" }).waitFor();
      await status.getByRole("cell", { name: XSS }).waitFor();
      await noXss(page);
      assert.equal(describeViolations(await seriousViolations(page)), "");

      const form = page.getByRole("form", { name: "Commit all changes" });
      await form.getByLabel("Commit message").fill(`Add notes ${XSS}`);
      await form.getByRole("button", { name: "Commit changes" }).click();
      await page.getByText("Committed ").waitFor();
      assert.match(git(repos.work, "log", "-1", "--format=%s"), "Add notes");
      await section(page, "Recent commits").getByRole("cell", { name: `Add notes ${XSS}` }).waitFor();
      await status.getByText("No changes.").waitFor();
      await noXss(page);

      await page.getByRole("button", { name: "Request push" }).click();
      const link = page.getByRole("link", { name: /^Open approval / });
      await link.waitFor();
      const id = (await link.getAttribute("href"))!.replace("/console/approvals/", "");
      assert.is((await h.json(`/api/approvals/${id}`)).body.approval.status, "pending");
      assert.not.equal(git(repos.bare, "log", "-1", "--format=%s", "main").includes("Add notes"), true, "nothing was pushed before the approval");
    });
  });

  t("git: a repository whose configuration would run a program is refused with GIT_UNSAFE_CONFIG", async () => {
    plantConfig(repos.work, "[core]\n\tfsmonitor = touch /tmp/muster-console-fsmonitor");
    try {
      await withPage("/console/git", async (page) => {
        await page.getByRole("alert").getByText("GIT_UNSAFE_CONFIG").first().waitFor();
      });
    } finally {
      git(repos.work, "config", "--unset", "core.fsmonitor");
    }
  });

  t("at 390 px wide the pages do not scroll sideways", async () => {
    for (const path of ["/console/publishing", "/console/terminal", "/console/git"]) {
      await withPage(path, async (page) => {
        await page.locator("h1").waitFor();
        await page.locator("section").first().waitFor();
        assert.ok((await page.evaluate("document.documentElement.scrollWidth")) as number <= 390, path);
      }, { width: 390, height: 800 });
    }
  });
}

t.run();
