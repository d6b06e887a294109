// The whole trip of the README: an agent asks to publish a draft, the approval reaches the
// chat with buttons, the human presses Approve, and the professional network gets exactly
// one post; the chat shows the outcome and a replayed press changes nothing.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../../helpers/start-test-host.ts";
import { startTelegramFake } from "../../helpers/platform-fakes/telegram.ts";
import { LINKEDIN_TOKEN_VALUE, startLinkedInFake } from "../../helpers/platform-fakes/linkedin.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { setSecret, settled } from "../publishing/helpers.ts";
import { configure, deliver, messengerOptions, press } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("publishing approved from the chat");

t("agent request → chat buttons → Approve → one post at the platform", async () => {
  const [tg, li] = await Promise.all([startTelegramFake(), startLinkedInFake()]);
  try {
    const options = messengerOptions(tg.url);
    options.config!.pluginConfig = { ...options.config!.pluginConfig, publishing: { linkedin: { apiBaseUrl: li.url } } };
    await withTestHost(options, async (h) => {
      await configure(h);
      await setSecret(h, "LINKEDIN_ACCESS_TOKEN", LINKEDIN_TOKEN_VALUE);
      const draft = await h.json<ApiBody<"postContentDrafts">>("/api/content/drafts", { method: "POST", body: { text: "From the chat with love", platforms: ["linkedin"] }, headers: { "x-agent-id": "saga" } });
      const requested = await h.json<ApiBody<"postContentPublish">>("/api/content/publish", { method: "POST", body: { draftId: draft.body.draft.id }, headers: { "x-agent-id": "saga" } });
      assert.is(requested.status, 202, JSON.stringify(requested.body));
      const approval = requested.body.approval;
      assert.is(approval.requestedBy, "saga");

      const notice = await waitUntil(() => tg.method("sendMessage").find((m) => m.text.includes(approval.id)), { label: "the approval in the chat" });
      assert.match(notice.text, /Publish to linkedin now/);
      const approveButton = notice.reply_markup.inline_keyboard[0][0].callback_data;
      assert.is(li.posts.length, 0, "nothing leaves before the press");

      const update = press(approveButton, { text: notice.text });
      assert.equal((await deliver(h, update)).body, { ok: true, outcome: "handled" });
      const [entry] = await settled(h, String(approval.id));
      assert.is(entry.status, "published");
      assert.is(li.posts.length, 1);
      assert.is(li.posts[0].commentary, "From the chat with love");
      assert.match(tg.method("editMessageText").at(-1).text, /✅ Approved by owner$/);

      assert.is((await deliver(h, update)).body.outcome, "duplicate");
      await deliver(h, press(approveButton));
      assert.match(tg.method("answerCallbackQuery").at(-1).text, /Already decided/);
      assert.is(li.posts.length, 1);
    });
  } finally {
    await Promise.all([tg.close(), li.close()]);
  }
});

t.run();
