// POST /api/messenger/webhook against a local Telegram Bot API fake (catalogue group F):
// the secret header, persisted update de-duplication (also across a restart, and bounded),
// the one configured chat, Approve/Reject buttons deciding through the approvals plugin with
// the HTTP API's rules, /status, media limits, and new approvals pushed with buttons.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { sqliteFileTest } from "../../helpers/database-file.ts";
import { readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { removeHome, startTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { startTelegramFake, type TelegramFake } from "../../helpers/platform-fakes/telegram.ts";
import { PNG } from "../../helpers/platform-fakes/linkedin.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { openSse } from "../../helpers/sse-client.ts";
import { approvalOf, CHAT_ID, configure, deliver, message, messengerOptions, OTHER_CHAT, press, requestApproval, updateId, WEBHOOK_SECRET } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost; tg: TelegramFake }>("messenger webhook");
t.before(async (ctx) => {
  ctx.tg = await startTelegramFake();
  ctx.h = await startTestHost(messengerOptions(ctx.tg.url, { maxSeenUpdates: 20 }));
});
t.after(async (ctx) => {
  await ctx.h.stop();
  await ctx.tg.close();
  removeHome(ctx.h.home);
});

/** Waits for the push of a new approval, so later call counts at the fake are not disturbed by it. */
const pushed = (tg: TelegramFake, id: string) =>
  waitUntil(() => tg.method("sendMessage").find((m) => m.reply_markup?.inline_keyboard?.[0]?.[0]?.callback_data === `approve:${id}`), { label: `notice for ${id}` });

t("without the secrets the webhook answers 409 MESSENGER_NOT_CONFIGURED, and new approvals are not pushed", async ({ h, tg }) => {
  const res = await deliver(h, press("approve:x"));
  assert.is(res.status, 409);
  assert.is(res.body.error?.code, "MESSENGER_NOT_CONFIGURED");
  await requestApproval(h, "Before configuration");
  await configure(h);
  assert.is(tg.method("sendMessage").length, 0);
});

t("a missing or wrong secret header is 401 and nothing is done (the update id stays unseen)", async ({ h, tg }) => {
  const id = await requestApproval(h);
  await pushed(tg, id);
  const update = press(`approve:${id}`);
  const forged: Record<string, string>[] = [{}, { "x-telegram-bot-api-secret-token": "" }, { "x-telegram-bot-api-secret-token": "wrong" }, { "x-telegram-bot-api-secret-token": `${WEBHOOK_SECRET}x` }, { "x-telegram-bot-api-secret-token": WEBHOOK_SECRET.slice(0, -1) }];
  for (const headers of forged) {
    const res = await deliver(h, update, headers);
    assert.is(res.status, 401, JSON.stringify(headers));
    assert.is(res.body.error?.code, "MESSENGER_WEBHOOK_UNAUTHORIZED");
  }
  // Validation comes after the secret: a forged body learns nothing.
  assert.is((await deliver(h, { nonsense: true }, { "x-telegram-bot-api-secret-token": "wrong" })).status, 401);
  assert.is((await approvalOf(h, id)).status, "pending");
  assert.is(tg.method("answerCallbackQuery").length, 0);
  // The same update with the right secret is new: the forged deliveries did not mark it seen.
  const res = await deliver(h, update);
  assert.equal(res.body, { ok: true, outcome: "handled" });
  assert.is((await approvalOf(h, id)).status, "approved");
});

t("a body that is not an update (with the right secret) is 400 MESSENGER_UPDATE_INVALID", async ({ h }) => {
  for (const body of [{}, { update_id: "7" }, { update_id: -1 }, [], { update_id: 1.5 }]) {
    const res = await deliver(h, body);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error?.code, "MESSENGER_UPDATE_INVALID");
  }
});

t("a new approval is pushed to the chat with Approve and Reject buttons", async ({ h, tg }) => {
  const id = await requestApproval(h, "Rotate the keys");
  const sent = await pushed(tg, id);
  assert.is(sent.chat_id, String(CHAT_ID));
  assert.match(sent.text, /Rotate the keys/);
  assert.match(sent.text, /agent-a/);
  assert.equal(sent.reply_markup.inline_keyboard, [[{ text: "✅ Approve", callback_data: `approve:${id}` }, { text: "❌ Reject", callback_data: `reject:${id}` }]]);
  assert.is(sent.parse_mode, undefined, "plain text: a title is never read as markup");
});

t("the Approve button decides as the configured human; the toast answers and the message shows the outcome", async ({ h, tg }) => {
  const id = await requestApproval(h);
  await pushed(tg, id);
  const update = press(`approve:${id}`, { text: "Approval requested: Deploy" });
  const res = await deliver(h, update);
  assert.equal(res.body, { ok: true, outcome: "handled" });
  const approval = await approvalOf(h, id);
  assert.is(approval.status, "approved");
  assert.is(approval.decidedBy, "owner");
  const history = (await h.json<ApiBody<"getApprovals">>("/api/approvals")).body.history;
  assert.ok(history.some((a) => a.id === id && a.status === "approved"));
  const toast = tg.method("answerCallbackQuery").at(-1);
  assert.is(toast.callback_query_id, update.callback_query.id);
  assert.match(toast.text, /Approved by owner/);
  const edit = tg.method("editMessageText").at(-1);
  assert.equal([edit.chat_id, edit.message_id], [CHAT_ID, 555]);
  assert.match(edit.text, /^Approval requested: Deploy\n\n✅ Approved by owner/);
});

t("the Reject button rejects; pressing again is refused as already decided", async ({ h, tg }) => {
  const id = await requestApproval(h);
  await pushed(tg, id);
  await deliver(h, press(`reject:${id}`));
  assert.is((await approvalOf(h, id)).status, "rejected");
  await deliver(h, press(`approve:${id}`));
  assert.is((await approvalOf(h, id)).status, "rejected");
  assert.match(tg.method("answerCallbackQuery").at(-1).text, /Already decided/);
});

t("a replayed update_id is answered 200 and does nothing, also after a restart", async (ctx) => {
  const { tg } = ctx;
  const first = await requestApproval(ctx.h);
  await pushed(tg, first);
  const update = press(`reject:${first}`);
  assert.is((await deliver(ctx.h, update)).body.outcome, "handled");
  const toasts = tg.method("answerCallbackQuery").length;
  // The same update id carrying another approval's button: a duplicate, not a new decision.
  const second = await requestApproval(ctx.h);
  await pushed(tg, second);
  const replay = { ...update, callback_query: { ...update.callback_query, data: `approve:${second}` } };
  const again = await deliver(ctx.h, replay);
  assert.is(again.status, 200);
  assert.equal(again.body, { ok: true, outcome: "duplicate" });
  ctx.h = await ctx.h.restart();
  assert.equal((await deliver(ctx.h, replay)).body, { ok: true, outcome: "duplicate" });
  assert.is((await approvalOf(ctx.h, second)).status, "pending");
  assert.is(tg.method("answerCallbackQuery").length, toasts);
});

t("concurrent deliveries of one update decide once", async ({ h, tg }) => {
  const id = await requestApproval(h);
  await pushed(tg, id);
  const update = press(`approve:${id}`);
  const outcomes = (await Promise.all(Array.from({ length: 5 }, () => deliver(h, update)))).map((r) => r.body.outcome).sort();
  assert.equal(outcomes, ["duplicate", "duplicate", "duplicate", "duplicate", "handled"]);
  assert.is((await approvalOf(h, id)).status, "approved");
});

t("updates from another chat are ignored: no decision, no reply", async ({ h, tg }) => {
  const id = await requestApproval(h);
  await pushed(tg, id);
  const calls = tg.requests.length;
  assert.equal((await deliver(h, press(`approve:${id}`, { chat: OTHER_CHAT }))).body, { ok: true, outcome: "ignored" });
  assert.equal((await deliver(h, message({ text: "/status" }, { chat: OTHER_CHAT }))).body, { ok: true, outcome: "ignored" });
  assert.is((await approvalOf(h, id)).status, "pending");
  assert.is(tg.requests.length, calls);
});

t("forged button data never decides: unknown actions, extra fields, over-long data", async ({ h, tg }) => {
  const id = await requestApproval(h);
  await pushed(tg, id);
  for (const data of [`approve:${id}:as:frigg`, `publish:${id}`, `approve:${id} `, `APPROVE:${id}`, `approve:${"a".repeat(80)}`, "approve:", ""]) {
    assert.is((await deliver(h, press(data))).status, 200, data);
    assert.match(tg.method("answerCallbackQuery").at(-1).text, /Unknown action/, data);
  }
  assert.is((await approvalOf(h, id)).status, "pending");
});

t("a press carried by a request with an agent identity cannot decide (same rule as PATCH /api/approvals)", async ({ h, tg }) => {
  const id = await requestApproval(h);
  await pushed(tg, id);
  const res = await deliver(h, press(`approve:${id}`), { "x-telegram-bot-api-secret-token": WEBHOOK_SECRET, "x-agent-id": "agent-a" });
  assert.is(res.status, 200);
  assert.is((await approvalOf(h, id)).status, "pending");
  assert.match(tg.method("answerCallbackQuery").at(-1).text, /agents cannot decide/);
});

t("/status answers with the pending count; other commands with the help line", async ({ h, tg }) => {
  const pending = (await h.json<ApiBody<"getApprovals">>("/api/approvals")).body.pendingTotal;
  await deliver(h, message({ text: "/status" }));
  const reply = tg.method("sendMessage").at(-1);
  assert.is(reply.chat_id, CHAT_ID);
  assert.match(reply.text, new RegExp(`^Pending approvals: ${pending}\\n`));
  await deliver(h, message({ text: "/help@muster_bot" }));
  assert.is(tg.method("sendMessage").at(-1).text, "Commands: /status");
});

sqliteFileTest(t, "makes storing fail with a file where MUSTER_HOME/media goes (on PostgreSQL the bytes go to the database)")("an update whose handling fails is answered 500 and forgotten, so Telegram's redelivery is handled", async ({ h, tg }) => {
  tg.files.set("retry-me", { bytes: PNG });
  // A file where the media directory should be: storing fails (a fault, not a refusal).
  writeFileSync(join(h.home, "media"), "in the way");
  const update = message({ document: { file_id: "retry-me", mime_type: "image/png", file_size: PNG.length } });
  try {
    const failed = await deliver(h, update);
    assert.is(failed.status, 500);
    assert.is(failed.body.error?.code, "INTERNAL_ERROR");
  } finally {
    rmSync(join(h.home, "media"));
  }
  const redelivered = await deliver(h, update);
  assert.equal(redelivered.body, { ok: true, outcome: "handled" });
  assert.match(tg.method("sendMessage").at(-1).text, /^Saved/);
  assert.equal((await deliver(h, update)).body, { ok: true, outcome: "duplicate" });
});

/** The ids of the next `n` messenger.media.saved events while `deliveries` runs. */
async function savedIds(h: TestHost, n: number, deliveries: () => Promise<void>): Promise<string[]> {
  const sse = await openSse(h.url);
  try {
    await deliveries();
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await sse.next((f) => f.data?.type === "event" && f.data.name === "messenger.media.saved" && !ids.includes(f.data.payload.id), 10_000, "messenger.media.saved")).data.payload.id);
    return ids;
  } finally {
    sse.close();
  }
}

t("media: an accepted photo is stored and served by GET /api/messenger/media/:id (through any instance of a team); wrong types, oversize and mismatched content are refused", async ({ h, tg }) => {
  tg.files.set("photo-ok", { bytes: PNG });
  tg.files.set("jpeg-ok", { bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100)]) });
  tg.files.set("zip", { bytes: Buffer.from("PK\u0003\u0004") });
  tg.files.set("big-declared", { bytes: PNG, reportedSize: 5000 });
  tg.files.set("big-actual", { bytes: Buffer.concat([PNG, Buffer.alloc(2000)]), reportedSize: 10 });
  tg.files.set("fake-png", { bytes: Buffer.from("not an image at all") });
  const savedCount = async () => (await h.json<ApiBody<"getMessenger">>("/api/messenger")).body.media.saved;
  const before = await savedCount(); // the redelivery test stored one

  const [jpegId, pngId] = await savedIds(h, 2, async () => {
    await deliver(h, message({ photo: [{ file_id: "small", file_size: 10, width: 1, height: 1 }, { file_id: "jpeg-ok", file_size: 104, width: 90, height: 90 }] }));
    assert.match(tg.method("sendMessage").at(-1).text, /^Saved \(104 bytes\)/);
    await deliver(h, message({ document: { file_id: "photo-ok", file_name: "../../etc/evil.png", mime_type: "image/png", file_size: PNG.length } }));
    assert.match(tg.method("sendMessage").at(-1).text, /^Saved/);
  });
  assert.is((await savedCount()) - before, 2);
  // Read back through the API (in a team, on either instance: each request goes to the next one).
  for (const [id, type, bytes] of [[jpegId!, "image/jpeg", tg.files.get("jpeg-ok")!.bytes], [pngId!, "image/png", PNG]] as const) {
    for (let i = 0; i < 2; i++) {
      const res = await h.request(`/api/messenger/media/${id}`);
      assert.is(res.status, 200);
      assert.is(res.headers.get("content-type"), type);
      assert.match(res.headers.get("content-disposition") ?? "", new RegExp(`^attachment; filename="${id}\\.(jpg|png)"$`));
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(bytes), `the stored bytes of ${id}`);
    }
  }
  const unknown = await h.json(`/api/messenger/media/${crypto.randomUUID()}`);
  assert.is(unknown.status, 404);
  assert.is((unknown.body as { error?: { code?: string } }).error?.code, "MESSENGER_MEDIA_NOT_FOUND");
  assert.is((await h.json("/api/messenger/media/not-an-id")).status, 400);

  const refusals: [Record<string, unknown>, RegExp][] = [
    [{ document: { file_id: "zip", mime_type: "application/zip", file_size: 4 } }, /type application\/zip is not accepted/],
    [{ document: { file_id: "big-declared", mime_type: "image/png", file_size: 5000 } }, /5000 bytes; at most 1024/],
    [{ document: { file_id: "big-declared", mime_type: "image/png" } }, /5000 bytes; at most 1024/],
    [{ document: { file_id: "big-actual", mime_type: "image/png", file_size: 10 } }, /larger than 1024 bytes/],
    [{ document: { file_id: "fake-png", mime_type: "image/png", file_size: 19 } }, /content is not image\/png/],
    [{ document: { file_id: "missing", mime_type: "image/png", file_size: 19 } }, /did not hand over the file/],
  ];
  for (const [fields, reason] of refusals) {
    const res = await deliver(h, message(fields));
    assert.is(res.status, 200);
    assert.match(tg.method("sendMessage").at(-1).text, reason);
  }
  assert.is((await savedCount()) - before, 2, "nothing stored for a refused file");
  const getFiles = tg.method("getFile").map((b) => b.file_id);
  assert.not.ok(getFiles.includes("zip"), "a refused type is not even fetched");
});

sqliteFileTest(t, "reads the files under MUSTER_HOME/media (on PostgreSQL the bytes are in the database)")("media on SQLite: files named <uuid>.<ext> under MUSTER_HOME/media (0700), never the sender's name", async ({ h, tg }) => {
  tg.files.set("layout-png", { bytes: PNG });
  const mediaDir = join(h.home, "media");
  await deliver(h, message({ document: { file_id: "layout-png", file_name: "../../etc/evil.png", mime_type: "image/png", file_size: PNG.length } }));
  assert.match(tg.method("sendMessage").at(-1).text, /^Saved/);
  const files = readdirSync(mediaDir);
  assert.ok(files.length >= 1 && files.every((f) => /^[0-9a-f-]{36}\.(jpg|png)$/.test(f)), files.join(","));
  assert.is(statSync(mediaDir).mode & 0o777, 0o700);
  assert.ok(files.every((f) => (statSync(join(mediaDir, f)).mode & 0o777) === 0o600));
});

sqliteFileTest(t, "counts the seen-update rows in muster.db")("the seen-update table stays bounded, and an id older than everything kept counts as seen", async ({ h }) => {
  const oldest = updateId();
  await deliver(h, message({ text: "hello" }, { update: oldest }));
  for (let i = 0; i < 25; i++) await deliver(h, message({ text: "hello" }));
  // The dedup table's size is the fact under test; no route shows it.
  const db = new BetterSqlite3(join(h.home, "muster.db"), { readonly: true });
  try {
    const { n } = db.prepare("SELECT count(*) AS n FROM messenger_seen_updates").get() as { n: number };
    assert.ok(n <= 20, `${n} rows kept`);
  } finally {
    db.close();
  }
  assert.equal((await deliver(h, message({ text: "/status" }, { update: oldest }))).body, { ok: true, outcome: "duplicate" });
});

t.run();
