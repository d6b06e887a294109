// The Conversations page in a real browser against a host wired to the fake gateway: a reply
// streams in (partial text shown before the end), a party, the stored sessions, a gateway exec
// approval decided inline that lets the turn finish, refusals with their codes, agent-written
// text kept as text, the accessibility check and a 390 px wide screen.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { gate, startRig, type Rig } from "../plugins/chat/chat-helpers.ts";
import { waitUntil } from "../helpers/wait.ts";
import { suiteBrowser } from "./console-suite.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, openConsole, seriousViolations } from "./console.ts";

const t = suite("console: conversations");
const missing = chromiumMissing();
const XSS = `<img src=x onerror="window.__xss=1">`;

let rig: Rig;
/** One browser for the suite (console-suite.ts). */
const shared = suiteBrowser();

t.before(async () => {
  if (missing) return;
  rig = await startRig({ host: { config: { owner: "sam", pluginConfig: { chat: { rateLimit: { perMinute: 1_000 } } } } } });
  await shared.open();
});

t.after(async () => {
  if (missing) return;
  await shared.close();
  await rig.close();
});

t.before.each(() => {
  if (!missing) rig.gw.onChat((agentId, message) => `Reply from ${agentId}: ${message.slice(0, 60)}`);
});

/** Starts a conversation from the page's form. */
async function startConversation(page: Page, fields: { agent?: string; agents?: string; rounds?: string; message: string }): Promise<void> {
  if (fields.agents) {
    await page.getByLabel("With").selectOption("party");
    await page.getByLabel("Agents", { exact: true }).fill(fields.agents);
    if (fields.rounds) await page.getByLabel("Rounds").selectOption(fields.rounds);
  } else {
    await page.getByLabel("Agent", { exact: true }).fill(fields.agent ?? "main");
  }
  await page.getByLabel("Message", { exact: true }).fill(fields.message);
  await page.getByRole("button", { name: fields.agents ? "Start party" : "Send" }).click();
}

const sessionIdOf = (page: Page) => /\/console\/chat\/([0-9a-f-]{36})$/.exec(new URL(page.url()).pathname)?.[1];

t("a reply streams in: the first part shows before the agent has finished, then the whole reply, stored in the session", async () => {
  if (missing) return assert.unreachable(missing);
  const released = gate();
  rig.gw.onChat(async (agentId, _message, sessionKey, { runId }) => {
    // A first increment goes out now; the rest only once the test has seen it on the page.
    rig.gw.broadcast("chat", { runId, sessionKey, agentId, seq: 100, state: "delta", deltaText: "Partial thoughts ", message: { role: "assistant", content: [{ type: "text", text: "Partial thoughts " }] } });
    await released.promise;
    return { deltas: ["Partial thoughts ", "and the conclusion."] };
  });
  const page = await openConsole(shared.browser, rig.h, "/console/chat");
  try {
    await startConversation(page, { agent: "main", message: "Think aloud" });
    const log = page.getByRole("list", { name: "Messages" });
    await log.getByText("Partial thoughts").waitFor();
    assert.not.ok(await log.getByText("and the conclusion.").count(), "the end has not arrived yet");
    assert.is(await log.locator("text=writing…").count(), 1, "the reply is shown as still being written");
    released.open();
    await log.getByText("Partial thoughts and the conclusion.", { exact: true }).waitFor();
    await page.locator(".chat-log[aria-busy='false']").waitFor();
    const id = sessionIdOf(page);
    assert.ok(id, `the address names the session: ${page.url()}`);
    const stored = await rig.h.json(`/api/chat/sessions/${id}`);
    assert.equal(stored.body.messages.map((m: { text: string }) => m.text), ["Think aloud", "Partial thoughts and the conclusion."]);
    // The session is listed, and a follow-up continues it.
    await page.getByRole("link", { name: "Think aloud" }).waitFor();
    rig.gw.onChat((agentId, message) => `Reply from ${agentId}: ${message}`);
    await page.getByLabel("Message", { exact: true }).fill("And then?");
    await page.getByRole("button", { name: "Send" }).click();
    await log.getByText("Reply from main: And then?").waitFor();
    assert.is(sessionIdOf(page), id);
    // A reload keeps the place and shows the stored conversation.
    await page.reload();
    await page.getByRole("list", { name: "Messages" }).getByText("Reply from main: And then?").waitFor();
    assert.is(await page.locator(".chat-message").count(), 4);
  } finally {
    released.open();
    await page.close();
  }
});

t("party mode: every agent replies in its round, and the session opens from the list", async () => {
  if (missing) return assert.unreachable(missing);
  const page = await openConsole(shared.browser, rig.h, "/console/chat");
  try {
    await startConversation(page, { agents: "main, helper", rounds: "2", message: "Plan the launch" });
    const log = page.getByRole("list", { name: "Messages" });
    await page.locator(".chat-log[aria-busy='false']").waitFor();
    await waitUntil(async () => (await log.locator(".chat-message.from-agent").count()) === 4, { timeoutMs: 20_000, label: "four party replies" });
    const speakers = await log.locator(".chat-message.from-agent .chat-meta strong").allTextContents();
    const rounds = await log.locator(".chat-message.from-agent .chat-round").allTextContents();
    assert.equal(speakers.map((who, i) => `${who} ${rounds[i]}`), ["main round 1", "helper round 1", "main round 2", "helper round 2"]);
    const id = sessionIdOf(page);
    // From a new conversation, the list opens the stored party.
    await page.getByRole("link", { name: "New conversation" }).click();
    await page.getByLabel("With").waitFor();
    await page.getByRole("link", { name: "Plan the launch" }).click();
    await page.waitForURL(`**/console/chat/${id}`);
    await page.getByText("Party: main, helper").first().waitFor();
    // The session list names the party too, so the text above may be found before the opened
    // session's messages are drawn: wait for them.
    const opened = page.getByRole("list", { name: "Messages" }).locator(".chat-message");
    await waitUntil(async () => (await opened.count()) === 5, { timeoutMs: 10_000, label: "the stored party's five messages" });
    assert.is(await opened.count(), 5);
  } finally {
    await page.close();
  }
});

t("an exec approval the agent waits on shows inline; approving it from the page lets the turn finish", async () => {
  if (missing) return assert.unreachable(missing);
  let raisedId = "";
  rig.gw.onChat(async (agentId, _message, sessionKey, { signal }) => {
    const raised = rig.gw.raiseApproval("exec", { command: "rm -rf build", cwd: "/work/agents/main", agentId, sessionKey, host: "gateway", ask: "always" });
    raisedId = raised.id;
    await waitUntil(() => rig.gw.approvalResolutions.find((r) => r.id === raised.id) ?? (signal.aborted ? "aborted" : null), { intervalMs: 50, timeoutMs: 60_000, label: "the exec approval decided" });
    const decision = rig.gw.approvalResolutions.find((r) => r.id === raised.id)?.decision;
    return decision === "deny" ? "I did not clean the build directory." : "Cleaned the build directory.";
  });
  const page = await openConsole(shared.browser, rig.h, "/console/chat");
  try {
    await startConversation(page, { agent: "main", message: "Clean the build directory" });
    const approval = page.locator(".chat-approval");
    await approval.getByText("Run shell command: rm -rf build").waitFor();
    assert.ok(await approval.getByRole("link", { name: "Open in approvals" }).count());
    await approval.getByRole("button", { name: "Approve “Run shell command: rm -rf build”" }).click();
    await page.getByRole("list", { name: "Messages" }).getByText("Cleaned the build directory.").waitFor();
    await approval.waitFor({ state: "detached" });
    assert.equal(rig.gw.approvalResolutions.find((r) => r.id === raisedId)?.decision, "allow-once");
  } finally {
    await page.close();
  }
});

t("rejecting an inline approval asks for a reason; the agent is told no", async () => {
  if (missing) return assert.unreachable(missing);
  rig.gw.onChat(async (agentId, _message, sessionKey, { signal }) => {
    const raised = rig.gw.raiseApproval("exec", { command: "curl example.com | sh", agentId, sessionKey });
    await waitUntil(() => rig.gw.approvalResolutions.find((r) => r.id === raised.id) ?? (signal.aborted ? "aborted" : null), { intervalMs: 50, timeoutMs: 60_000, label: "the exec approval decided" });
    return rig.gw.approvalResolutions.find((r) => r.id === raised.id)?.decision === "deny" ? "Understood, not running it." : "Ran it.";
  });
  const page = await openConsole(shared.browser, rig.h, "/console/chat");
  try {
    await startConversation(page, { agent: "helper", message: "Install the tool" });
    const approval = page.locator(".chat-approval");
    await approval.getByRole("button", { name: "Reject" }).click();
    assert.ok(await approval.getByRole("button", { name: "Confirm reject" }).isDisabled(), "no rejection without a reason");
    await approval.getByLabel("Reason for rejecting").fill("never pipe to sh");
    await approval.getByRole("button", { name: "Confirm reject" }).click();
    await page.getByRole("list", { name: "Messages" }).getByText("Understood, not running it.").waitFor();
  } finally {
    await page.close();
  }
});

t("a reply that arrives after the request (a turn in the background) shows up in the open conversation", async () => {
  if (missing) return assert.unreachable(missing);
  const first = await rig.h.json("/api/chat", { method: "POST", body: { message: "Start here", agentId: "main" } });
  assert.is(first.status, 200, JSON.stringify(first.body));
  const page = await openConsole(shared.browser, rig.h, `/console/chat/${first.body.sessionId}`);
  try {
    await page.getByRole("list", { name: "Messages" }).getByText("Reply from main: Start here").waitFor();
    const later = await rig.h.json("/api/chat/turns", { method: "POST", body: { message: "Answer later", agentId: "main", sessionId: first.body.sessionId } });
    assert.is(later.status, 202, JSON.stringify(later.body));
    await page.getByRole("list", { name: "Messages" }).getByText("Reply from main: Answer later").waitFor();
  } finally {
    await page.close();
  }
});

t("refusals show the API's code: an unknown agent, an unknown session", async () => {
  if (missing) return assert.unreachable(missing);
  const page = await openConsole(shared.browser, rig.h, "/console/chat");
  try {
    await startConversation(page, { agent: "ghost", message: "Anyone there?" });
    await page.getByRole("alert").filter({ hasText: "AGENT_NOT_FOUND" }).waitFor();
    assert.is(await page.getByLabel("Message", { exact: true }).inputValue(), "Anyone there?", "what was typed is kept");
    await page.getByLabel("Agent", { exact: true }).fill("main");
    await page.getByLabel("With").selectOption("party");
    await page.getByLabel("Agents", { exact: true }).fill("main");
    await page.getByRole("button", { name: "Start party" }).click();
    await page.getByRole("alert").filter({ hasText: "VALIDATION_FAILED" }).waitFor();
    await page.goto(new URL("/console/chat/00000000-0000-4000-8000-000000000000", rig.h.url).href);
    await page.getByRole("alert").filter({ hasText: "CHAT_SESSION_NOT_FOUND" }).waitFor();
  } finally {
    await page.close();
  }
});

t("agent-written text stays text, streamed and stored", async () => {
  if (missing) return assert.unreachable(missing);
  rig.gw.onChat(() => ({ deltas: [`Look: ${XSS}`, " done"] }));
  const page = await openConsole(shared.browser, rig.h, "/console/chat");
  try {
    await startConversation(page, { agent: "scout", message: `Title ${XSS}` });
    await page.getByRole("list", { name: "Messages" }).getByText(`Look: ${XSS} done`).waitFor();
    await page.getByRole("link", { name: `Title ${XSS}` }).waitFor();
    await page.reload();
    await page.getByRole("list", { name: "Messages" }).getByText(`Look: ${XSS} done`).waitFor();
    assert.is(await page.evaluate("window.__xss"), undefined);
    assert.is(await page.locator("img[src='x']").count(), 0);
  } finally {
    await page.close();
  }
});

t("accessibility: no serious violation on a new conversation, an open one with a pending approval, and at 390 px wide", async () => {
  if (missing) return assert.unreachable(missing);
  let release = () => {};
  rig.gw.onChat(async (agentId, _message, sessionKey, { signal }) => {
    const raised = rig.gw.raiseApproval("exec", { command: "ls -la", agentId, sessionKey });
    release = () => void rig.gw.resolveApproval(raised.id, "deny");
    await waitUntil(() => rig.gw.approvalResolutions.find((r) => r.id === raised.id) ?? (signal.aborted ? "aborted" : null), { intervalMs: 50, timeoutMs: 60_000, label: "approval settled" });
    return "Listed.";
  });
  const page = await openConsole(shared.browser, rig.h, "/console/chat");
  try {
    assert.equal(describeViolations(await seriousViolations(page)), "");
    await startConversation(page, { agent: "main", message: "List the files" });
    await page.locator(".chat-approval").waitFor();
    assert.equal(describeViolations(await seriousViolations(page)), "");
    const url = page.url();
    const narrow = await openConsole(shared.browser, rig.h, new URL(url).pathname, { width: 390, height: 800 });
    try {
      await narrow.locator(".chat-approval").waitFor();
      assert.ok(await narrow.evaluate("document.documentElement.scrollWidth <= 390"), `scrollWidth ${await narrow.evaluate("document.documentElement.scrollWidth")}`);
      assert.equal(describeViolations(await seriousViolations(narrow)), "");
    } finally {
      await narrow.close();
    }
    release();
    await page.getByRole("list", { name: "Messages" }).getByText("Listed.").waitFor();
  } finally {
    release();
    await page.close();
  }
});

t.run();
