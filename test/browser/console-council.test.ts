// The Councils page in a real browser against a host wired to the fake gateway: a council
// started from the page runs to an approval while its positions and votes arrive live, the
// approval is linked and its ratification shown, refusals carry their codes, agent-written
// text stays text, the accessibility check and a 390 px wide screen.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { approve } from "@muster/plugin/testing";
import { gate, startRig, type Rig } from "../plugins/chat/chat-helpers.ts";
import type { FakeReplyHook } from "../helpers/fake-gateway.ts";
import { suiteBrowser } from "./console-suite.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, openConsole, seriousViolations } from "./console.ts";

const t = suite("console: councils");
const missing = chromiumMissing();
const XSS = `<img src=x onerror="window.__xss=1">`;
const VOTE_ASK = "Vote on the proposal";
const MODERATOR_ASK = "the moderator of a council";

let rig: Rig;
/** One browser for the suite (console-suite.ts). */
const shared = suiteBrowser();

/** Positions name their author and round; the moderator proposes; everyone votes as `votes` says, once `votesHeld` lets them. */
function councilHook(votes: Record<string, string>, votesHeld: Promise<void> = Promise.resolve(), extra = ""): FakeReplyHook {
  return async (agentId, message) => {
    if (message.includes(VOTE_ASK)) {
      await votesHeld;
      return votes[agentId] ?? '{"vote":"abstain","confidence":0.1,"reason":"no view"}';
    }
    if (message.includes(MODERATOR_ASK)) return `PROPOSAL: ship on Friday${extra}`;
    const round = /round (\d) of/.exec(message)?.[1];
    return `${agentId} position in round ${round}${extra}`;
  };
}

t.before(async () => {
  if (missing) return;
  rig = await startRig({ host: { config: { owner: "sam", pluginConfig: { council: { rateLimit: { perMinute: 100 } } } } } });
  await shared.open();
});

t.after(async () => {
  if (missing) return;
  await shared.close();
  await rig.close();
});

async function startCouncil(page: Page, fields: { topic: string; members: string; rounds?: string }): Promise<void> {
  await page.getByLabel("Topic").fill(fields.topic);
  await page.getByLabel("Members").fill(fields.members);
  if (fields.rounds) await page.getByLabel("Rounds").selectOption(fields.rounds);
  await page.getByRole("button", { name: "Start council" }).click();
}

const SUPPORT = '{"vote":"support","confidence":0.9,"reason":"ready"}';

t("a council started from the page runs to an approval: positions, then votes arrive live, the outcome, memo and approval link, then the ratification", async () => {
  if (missing) return assert.unreachable(missing);
  const votes = gate();
  rig.gw.onChat(councilHook({ main: SUPPORT, helper: '{"vote":"support","confidence":0.8,"reason":"tests green"}', scout: '{"vote":"oppose","confidence":0.4,"reason":"docs missing"}' }, votes.promise));
  const page = await openConsole(shared.browser, rig.h, "/console/councils");
  try {
    await startCouncil(page, { topic: "Ship the beta on Friday?", members: "main, helper, scout", rounds: "2" });
    await page.waitForURL(/\/console\/councils\/[0-9a-f-]{36}$/);
    const id = new URL(page.url()).pathname.split("/").at(-1)!;
    // Positions and the proposal arrive while the votes are held back.
    await page.getByText("scout position in round 2").waitFor();
    await page.getByText("PROPOSAL: ship on Friday").waitFor();
    const votesSection = page.getByRole("region", { name: "Votes" });
    assert.ok(await votesSection.getByText("No votes yet.").count(), "no votes yet");
    assert.ok(await page.getByText("Running").count(), "still running");
    votes.open();
    await votesSection.getByText("docs missing").waitFor();
    const outcome = page.getByRole("region", { name: "Outcome" });
    await outcome.getByText("Adopted", { exact: true }).waitFor();
    const session = (await rig.h.json(`/api/council/session/${id}`)).body.session;
    assert.ok(session.approvalId, "the adopted proposal waits for an approval");
    assert.is(await outcome.getByRole("link", { name: "Decide the approval" }).getAttribute("href"), `/console/approvals/${session.approvalId}`);
    await outcome.getByText(session.memoPath ?? "").waitFor();
    assert.is((await page.locator(".council-positions li").count()), 6);
    // Ratified elsewhere (the approvals page): the page follows.
    await approve(rig.h, session.approvalId);
    await outcome.getByText(/Ratified by/).waitFor();
    await page.getByText("Adopted, ratified").waitFor();
    // The list shows it and opens it again.
    await page.getByRole("link", { name: "All councils" }).click();
    await page.getByRole("link", { name: "Ship the beta on Friday?" }).click();
    await page.waitForURL(`**/console/councils/${id}`);
    await page.getByText("Adopted, ratified").waitFor();
  } finally {
    votes.open();
    await page.close();
  }
});

t("refusals show the API's code: an unknown member, too few members, an unknown council", async () => {
  if (missing) return assert.unreachable(missing);
  const page = await openConsole(shared.browser, rig.h, "/console/councils");
  try {
    await startCouncil(page, { topic: "Who is there?", members: "main, ghost" });
    await page.getByRole("alert").filter({ hasText: "AGENT_NOT_FOUND" }).waitFor();
    assert.is(await page.getByLabel("Topic").inputValue(), "Who is there?", "what was typed is kept");
    await page.getByLabel("Members").fill("main");
    await page.getByRole("button", { name: "Start council" }).click();
    await page.getByRole("alert").filter({ hasText: "VALIDATION_FAILED" }).waitFor();
    await page.goto(new URL("/console/councils/00000000-0000-4000-8000-000000000000", rig.h.url).href);
    await page.getByRole("alert").filter({ hasText: "COUNCIL_SESSION_NOT_FOUND" }).waitFor();
  } finally {
    await page.close();
  }
});

t("agent-written text stays text; accessibility and a 390 px wide screen", async () => {
  if (missing) return assert.unreachable(missing);
  rig.gw.onChat(councilHook({ main: `{"vote":"oppose","confidence":0.5,"reason":"no ${XSS.replace(/"/g, "'")}"}`, helper: SUPPORT }, Promise.resolve(), ` ${XSS}`));
  const page = await openConsole(shared.browser, rig.h, "/console/councils");
  try {
    await startCouncil(page, { topic: `Topic ${XSS}`, members: "main, helper", rounds: "1" });
    await page.waitForURL(/\/console\/councils\/[0-9a-f-]{36}$/);
    await page.getByText("No consensus", { exact: true }).first().waitFor();
    await page.getByText(`main position in round 1 ${XSS}`).waitFor();
    await page.getByText(`PROPOSAL: ship on Friday ${XSS}`).waitFor();
    assert.is(await page.evaluate("window.__xss"), undefined);
    assert.is(await page.locator("img[src='x']").count(), 0);
    assert.equal(describeViolations(await seriousViolations(page)), "");
    const path = new URL(page.url()).pathname;
    for (const where of [path, "/console/councils"]) {
      const narrow = await openConsole(shared.browser, rig.h, where, { width: 390, height: 800 });
      try {
        await narrow.getByRole("heading", { name: where === path ? "Votes" : "Councils", exact: true }).last().waitFor();
        assert.ok(await narrow.evaluate("document.documentElement.scrollWidth <= 390"), `${where}: scrollWidth ${await narrow.evaluate("document.documentElement.scrollWidth")}`);
        assert.equal(describeViolations(await seriousViolations(narrow)), "");
      } finally {
        await narrow.close();
      }
    }
    assert.is(await page.evaluate("window.__xss"), undefined);
  } finally {
    await page.close();
  }
});

t.run();
