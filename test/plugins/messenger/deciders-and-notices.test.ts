// Who a chat press decides as, and how new approvals reach the chat: the configured decider
// must be a configured approver (an unconfigured name decides nothing), allowedUserIds limits
// who may press, and pushing a notice retries 5xx/429 a bounded number of times, never
// retries other refusals, and never holds up the request that created the approval.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventRecorder, waitUntil } from "../../helpers/wait.ts";
import { withTestHost } from "../../helpers/start-test-host.ts";
import { BOT_TOKEN, startTelegramFake } from "../../helpers/platform-fakes/telegram.ts";
import { approvalOf, configure, deliver, messengerOptions, press, requestApproval } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("messenger deciders and notices");
const SEND = `POST /bot${BOT_TOKEN}/sendMessage`;

t("a chat mapped to a human who is not a configured approver decides nothing", async () => {
  const tg = await startTelegramFake();
  try {
    await withTestHost(messengerOptions(tg.url, { decidedBy: "mallory" }), async (h) => {
      await configure(h);
      const id = await requestApproval(h);
      await deliver(h, press(`approve:${id}`));
      assert.is((await approvalOf(h, id)).status, "pending");
      assert.match(tg.method("answerCallbackQuery").at(-1).text, /not a configured approver/);
    });
  } finally {
    await tg.close();
  }
});

t("the chat decides as the configured approver; the requester cannot decide its own request through the chat", async () => {
  const tg = await startTelegramFake();
  try {
    await withTestHost(messengerOptions(tg.url, { decidedBy: "FRIGG" }), async (h) => {
      await configure(h);
      const id = await requestApproval(h);
      await deliver(h, press(`approve:${id}`));
      const approval = await approvalOf(h, id);
      assert.is(approval.status, "approved");
      assert.is(approval.decidedBy, "frigg", "stored as the configured spelling");
      const own = await h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: { title: "Mine", type: "deploy", requestedBy: "frigg", context: "" } });
      await deliver(h, press(`approve:${own.body.approval.id}`));
      assert.is((await approvalOf(h, own.body.approval.id)).status, "pending");
      assert.match(tg.method("answerCallbackQuery").at(-1).text, /requester cannot decide/);
    });
  } finally {
    await tg.close();
  }
});

t("allowedUserIds: a press by another Telegram user is refused", async () => {
  const tg = await startTelegramFake();
  try {
    await withTestHost(messengerOptions(tg.url, { allowedUserIds: [77] }), async (h) => {
      await configure(h);
      const id = await requestApproval(h);
      await deliver(h, press(`approve:${id}`, { from: 66 }));
      assert.is((await approvalOf(h, id)).status, "pending");
      assert.is(tg.method("answerCallbackQuery").at(-1).text, "Not allowed");
      await deliver(h, press(`approve:${id}`, { from: 77 }));
      assert.is((await approvalOf(h, id)).status, "approved");
    });
  } finally {
    await tg.close();
  }
});

t("in a group chat no press decides unless allowedUserIds lists the presser (any member would decide as the owner)", async () => {
  const GROUP = -1001234567;
  const tg = await startTelegramFake();
  try {
    for (const allowedUserIds of [[], [77]]) {
      await withTestHost(messengerOptions(tg.url, { allowedUserIds }), async (h) => {
        await configure(h);
        const set = await h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: { name: "TELEGRAM_CHAT_ID", value: String(GROUP) }, session: true });
        assert.ok(set.status === 200 || set.status === 201, JSON.stringify(set.body));
        const id = await requestApproval(h);
        await deliver(h, press(`approve:${id}`, { chat: GROUP, from: 66 }));
        assert.is((await approvalOf(h, id)).status, "pending", `a stranger in the group, allowedUserIds ${JSON.stringify(allowedUserIds)}`);
        assert.match(tg.method("answerCallbackQuery").at(-1).text, /Not allowed/);
        await deliver(h, press(`approve:${id}`, { chat: GROUP, from: 77 }));
        assert.is((await approvalOf(h, id)).status, allowedUserIds.length ? "approved" : "pending");
      });
    }
  } finally {
    await tg.close();
  }
});

t("pushing a notice retries 5xx and 429 (bounded), and gives up at once on another refusal", async () => {
  const tg = await startTelegramFake();
  const recorder = eventRecorder("messenger.*");
  try {
    await withTestHost({ ...messengerOptions(tg.url, { sendAttempts: 3 }), extraPlugins: [recorder.plugin] }, async (h) => {
      await configure(h);
      tg.script(SEND, { status: 500, json: { ok: false, error_code: 500, description: "Internal Server Error" } }, { status: 429, json: { ok: false, error_code: 429, description: "Too Many Requests: retry after 0", parameters: { retry_after: 0 } } });
      const retried = await requestApproval(h, "Retried");
      const sent = await recorder.waitFor("messenger.notice.sent", (e) => e.payload.approvalId === retried, 5_000);
      assert.type(sent.payload, "object");
      assert.is(tg.calls(SEND).length, 3);

      tg.script(SEND, ...Array.from({ length: 3 }, () => ({ status: 502, json: { ok: false, error_code: 502, description: "Bad Gateway" } })));
      const exhausted = await requestApproval(h, "Exhausted");
      const failed = await recorder.waitFor("messenger.notice.failed", (e) => e.payload.approvalId === exhausted, 5_000);
      assert.is(failed.payload.attempts, 3);
      assert.is(tg.calls(SEND).length, 6);

      tg.script(SEND, { status: 403, json: { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" } });
      const blocked = await requestApproval(h, "Blocked");
      const gaveUp = await recorder.waitFor("messenger.notice.failed", (e) => e.payload.approvalId === blocked, 5_000);
      assert.is(gaveUp.payload.attempts, 1);
      assert.match(gaveUp.payload.reason, /403/);
      assert.is(tg.calls(SEND).length, 7);
    });
  } finally {
    await tg.close();
  }
});

t("a chat that never answers does not hold up the request creating the approval", async () => {
  const tg = await startTelegramFake();
  try {
    await withTestHost(messengerOptions(tg.url, { requestTimeoutMs: 60_000 }), async (h) => {
      await configure(h);
      tg.script(SEND, "hang");
      const id = await requestApproval(h, "Hanging chat");
      assert.is((await approvalOf(h, id)).status, "pending");
      await waitUntil(() => tg.calls(SEND).length === 1, { label: "the push reached the chat" });
      // The push is still unanswered here, yet the approval exists and the API answers.
      assert.is((await h.json<ApiBody<"getApprovals">>("/api/approvals")).status, 200);
    });
  } finally {
    await tg.close();
  }
});

t.run();
