// GET /api/messenger against the local Telegram fake: unconfigured (mode off, secrets missing
// by name, a new approval counted as not tried), the secrets stored one by one (notices-only,
// then webhook) without any value in the answer, the last update and its kind after webhook
// deliveries (also one from another chat), a saved photo counted, and a push Telegram refuses
// counted as failed with its HTTP status and message.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { removeHome, startTestHost, withTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { singleInstanceTest } from "../../helpers/team-host.ts";
import { BOT_TOKEN, startTelegramFake, type TelegramFake } from "../../helpers/platform-fakes/telegram.ts";
import { PNG } from "../../helpers/platform-fakes/linkedin.ts";
import { eventRecorder, waitUntil, type EventRecorder } from "../../helpers/wait.ts";
import { CHAT_ID, deliver, message, messengerOptions, OTHER_CHAT, press, requestApproval, updateId, WEBHOOK_SECRET } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

type Status = ApiBody<"getMessenger">;
const t = suite<{ h: TestHost; tg: TelegramFake; recorder: EventRecorder }>("messenger status");
// `notices` counts the pushes of the answering process since its start (`notices.since`); in a
// team the push is sent by the instance that took the approval, the status may come from the other.
const oneTally = singleInstanceTest(t, "reads one process's push tally (notices.since its start) through the round-robin");
const SEND = `POST /bot${BOT_TOKEN}/sendMessage`;

t.before(async (ctx) => {
  ctx.tg = await startTelegramFake();
  ctx.recorder = eventRecorder("messenger.*");
  ctx.h = await startTestHost({ ...messengerOptions(ctx.tg.url, { decidedBy: "frigg" }), extraPlugins: [ctx.recorder.plugin] });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  await ctx.tg.close();
  removeHome(ctx.h.home);
});

const status = async (h: TestHost) => {
  const res = await h.json<Status>("/api/messenger");
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body;
};
const store = async (h: TestHost, name: string, value: string) => {
  const res = await h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: { name, value }, session: true });
  assert.ok(res.status === 200 || res.status === 201, JSON.stringify(res.body));
};
const stored = (s: Status) => Object.fromEntries(s.secrets.map((x) => [x.name, x.stored]));

t("unconfigured: mode off, the three secrets missing by name, nothing received, a new approval counted as not tried", async ({ h, tg }) => {
  const s = await status(h);
  assert.is(s.ok, true);
  assert.is(s.configured, false);
  assert.is(s.mode, "off");
  assert.is(s.vault, "unlocked");
  assert.equal(stored(s), { TELEGRAM_BOT_TOKEN: false, TELEGRAM_WEBHOOK_SECRET: false, TELEGRAM_CHAT_ID: false });
  assert.is(s.webhookPath, "/api/messenger/webhook");
  assert.is(s.apiBaseUrl, tg.url);
  assert.is(s.decidedBy, "frigg");
  assert.is(s.lastUpdate, null);
  assert.equal({ ...s.notices, since: undefined }, { since: undefined, sent: 0, failed: 0, skipped: 0, lastSentAt: null, lastFailure: null });
  assert.equal(s.media, { saved: 0, bytes: 0, lastSavedAt: null });
  await requestApproval(h, "Before configuration");
  await waitUntil(async () => (await status(h)).notices.skipped === 1, { label: "the unpushed approval counted" });
  assert.is(tg.calls(SEND).length, 0);
});

t("the secrets stored: notices-only without the webhook secret, then webhook; no value is ever in the answer", async ({ h }) => {
  await store(h, "TELEGRAM_BOT_TOKEN", BOT_TOKEN);
  await store(h, "TELEGRAM_CHAT_ID", String(CHAT_ID));
  const partial = await status(h);
  assert.is(partial.mode, "notices-only");
  assert.is(partial.configured, false);
  assert.equal(stored(partial), { TELEGRAM_BOT_TOKEN: true, TELEGRAM_WEBHOOK_SECRET: false, TELEGRAM_CHAT_ID: true });
  await store(h, "TELEGRAM_WEBHOOK_SECRET", WEBHOOK_SECRET);
  const full = await status(h);
  assert.is(full.mode, "webhook");
  assert.is(full.configured, true);
  const text = JSON.stringify(full);
  assert.not.match(text, BOT_TOKEN);
  assert.not.match(text, WEBHOOK_SECRET);
  // Presence is read from the names: the status never decrypts, so lastAccessedAt stays unset.
  const names = await h.json<ApiBody<"getVault">>("/api/vault", { session: true });
  for (const secret of names.body.secrets.filter((x) => x.name.startsWith("TELEGRAM_"))) assert.is(secret.lastAccessedAt ?? null, null, secret.name);
});

oneTally("a pushed approval counts as sent; the last update is the latest webhook delivery with its kind", async ({ h, tg, recorder }) => {
  const id = await requestApproval(h, "Counted");
  await recorder.waitFor("messenger.notice.sent", (e) => e.payload.approvalId === id, 5_000);
  const sent = await status(h);
  assert.is(sent.notices.sent, 1);
  assert.ok(sent.notices.lastSentAt);

  const command = message({ text: "/status" });
  assert.equal((await deliver(h, command)).body, { ok: true, outcome: "handled" });
  let s = await status(h);
  assert.equal({ ...s.lastUpdate, receivedAt: undefined }, { updateId: command.update_id, kind: "command", ignored: false, receivedAt: undefined });
  assert.ok(Date.parse(s.lastUpdate!.receivedAt) > 0);
  const received = await recorder.waitFor("messenger.update.received", (e) => e.payload.updateId === command.update_id);
  assert.equal(received.payload, { updateId: command.update_id, kind: "command", outcome: "handled" });

  const button = press(`approve:${id}`);
  await deliver(h, button);
  s = await status(h);
  assert.is(s.lastUpdate?.kind, "button");
  assert.is(s.lastUpdate?.updateId, button.update_id);

  // A duplicate is not a new update; one from another chat is recorded as ignored.
  await deliver(h, command);
  assert.is((await status(h)).lastUpdate?.updateId, button.update_id);
  const stranger = message({ text: "hello" }, { chat: OTHER_CHAT });
  assert.equal((await deliver(h, stranger)).body, { ok: true, outcome: "ignored" });
  s = await status(h);
  assert.equal({ ...s.lastUpdate, receivedAt: undefined }, { updateId: stranger.update_id, kind: "message", ignored: true, receivedAt: undefined });
  assert.equal((await recorder.waitFor("messenger.update.received", (e) => e.payload.updateId === stranger.update_id)).payload.outcome, "ignored");
  assert.is(tg.calls(SEND).length >= 2, true);
});

t("a saved photo counts in media and is published as messenger.media.saved", async ({ h, tg, recorder }) => {
  tg.files.set("status-photo", { bytes: PNG });
  const update = message({ document: { file_id: "status-photo", mime_type: "image/png", file_size: PNG.length } }, { update: updateId() });
  await deliver(h, update);
  const s = await status(h);
  assert.is(s.media.saved, 1);
  assert.is(s.media.bytes, PNG.length);
  assert.ok(s.media.lastSavedAt);
  assert.is(s.lastUpdate?.kind, "media");
  const saved = await recorder.waitFor("messenger.media.saved");
  assert.is(saved.payload.sizeBytes, PNG.length);
  assert.is(saved.payload.mimeType, "image/png");
});

oneTally("a push Telegram refuses counts as failed with its HTTP status and message", async ({ h, tg, recorder }) => {
  tg.script(SEND, { status: 403, json: { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" } });
  const id = await requestApproval(h, "Blocked");
  await recorder.waitFor("messenger.notice.failed", (e) => e.payload.approvalId === id, 5_000);
  const s = await status(h);
  assert.is(s.notices.failed, 1);
  assert.is(s.notices.lastFailure?.approvalId, id);
  assert.is(s.notices.lastFailure?.status, 403);
  assert.is(s.notices.lastFailure?.attempts, 1);
  assert.match(s.notices.lastFailure?.reason ?? "", "sendMessage: HTTP 403: Forbidden: bot was blocked by the user");
  assert.not.match(JSON.stringify(s), BOT_TOKEN);
});

t("a locked vault: the secrets unknown (null), the mode off", async ({ tg }) => {
  const options = messengerOptions(tg.url);
  await withTestHost({ ...options, config: { ...options.config, vaultKey: undefined } }, async (h) => {
    const s = await status(h);
    assert.is(s.vault, "locked");
    assert.is(s.mode, "off");
    assert.equal(stored(s), { TELEGRAM_BOT_TOKEN: null, TELEGRAM_WEBHOOK_SECRET: null, TELEGRAM_CHAT_ID: null });
  });
});

t("the status route refuses unknown query parameters", async ({ h }) => {
  const res = await h.json("/api/messenger?token=1");
  assert.is(res.status, 400);
  assert.is(res.body.error?.code, "VALIDATION_FAILED");
});

t.run();
