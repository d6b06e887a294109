// The outbox's fault handling (catalogue group H) against the LinkedIn fake: a post whose
// answer is lost is `unknown` and never sent again (also across a restart), 429 waits for
// Retry-After, 5xx retries with backoff up to a bound, other 4xx fail at once, a send cut
// short by a crash is `unknown` at start, a second execution of one approval sends nothing,
// and a platform error echoing the credential is stored redacted.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { sqliteFileTest } from "../../helpers/database-file.ts";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { definePlugin, type PluginContext } from "@muster/plugin";
import { removeHome, startTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { scaled } from "../../helpers/time-scale.ts";
import { LINKEDIN_TOKEN_VALUE, startLinkedInFake, type LinkedInFake } from "../../helpers/platform-fakes/linkedin.ts";
import { approve, outbox, publishingOptions, setSecret, settled } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

/** Reaches the gate from outside HTTP, to execute an approved action a second time as a buggy or replayed executor would. */
const probe = { ctx: undefined as PluginContext | undefined };
const probePlugin = definePlugin({ id: "publishing-probe", version: "1.0.0", host: "^1.0.0", dependsOn: ["publishing"], onStart: (ctx) => void (probe.ctx = ctx) });

const t = suite<{ h: TestHost; li: LinkedInFake }>("publishing outbox faults");
t.before(async (ctx) => {
  ctx.li = await startLinkedInFake();
  ctx.h = await startTestHost(publishingOptions({ linkedin: ctx.li.url }, { requestTimeoutMs: scaled(1_000), maxAttempts: 3 }, { extraPlugins: [probePlugin] }));
  await setSecret(ctx.h, "LINKEDIN_ACCESS_TOKEN", LINKEDIN_TOKEN_VALUE);
  await setSecret(ctx.h, "LINKEDIN_PERSON_URN", "urn:li:person:782bbtaQ");
});
t.after(async (ctx) => {
  await ctx.h.stop();
  await ctx.li.close();
  removeHome(ctx.h.home);
});

async function requestPost(h: TestHost, text: string): Promise<string> {
  const res = await h.json<ApiBody<"postProfessionalNetwork">>("/api/professional-network", { method: "POST", body: { text } });
  assert.is(res.status, 202, JSON.stringify(res.body));
  return String(res.body.approval.id);
}
const postCalls = (li: LinkedInFake) => li.calls("POST /rest/posts").length;

t("a post whose answer never comes is unknown, and is not sent again, not even after a restart", async (ctx) => {
  const { li } = ctx;
  li.planPosts("hang");
  const id = await requestPost(ctx.h, "Lost in transit");
  await approve(ctx.h, id);
  const [entry] = await settled(ctx.h, id);
  assert.is(entry.status, "unknown");
  assert.match(entry.error, /may or may not exist/);
  assert.is(li.posts.length, 1, "the platform has the post");
  assert.is(postCalls(li), 1);
  ctx.h = await ctx.h.restart();
  const [after] = await outbox(ctx.h, `approvalId=${id}`);
  assert.is(after.status, "unknown");
  assert.is(postCalls(li), 1, "no second post after the restart");
});

t("429 with Retry-After: the post is retried only after the asked wait, then published", async (ctx) => {
  const { h, li } = ctx;
  const before = postCalls(li);
  li.planPosts({ status: 429, retryAfter: "1" });
  const id = await requestPost(h, "Patience");
  await approve(h, id);
  const [entry] = await settled(h, id, scaled(6_000));
  assert.is(entry.status, "published");
  assert.is(entry.attempts, 2);
  const calls = li.calls("POST /rest/posts").slice(before);
  assert.is(calls.length, 2);
  assert.ok(calls[1]!.at - calls[0]!.at >= 950, `retried after ${calls[1]!.at - calls[0]!.at} ms, before Retry-After's 1 s`);
});

t("a 5xx is retried with backoff, then published once", async ({ h, li }) => {
  const before = { calls: postCalls(li), posts: li.posts.length };
  li.planPosts({ status: 503 });
  const id = await requestPost(h, "Second time lucky");
  await approve(h, id);
  const [entry] = await settled(h, id);
  assert.is(entry.status, "published");
  assert.is(postCalls(li) - before.calls, 2);
  assert.is(li.posts.length - before.posts, 1);
});

t("persistent 5xx: failed after maxAttempts, never more", async ({ h, li }) => {
  const before = postCalls(li);
  li.planPosts({ status: 500 }, { status: 502 }, { status: 503 }, { status: 503 });
  const id = await requestPost(h, "Never lands");
  await approve(h, id);
  const [entry] = await settled(h, id);
  assert.is(entry.status, "failed");
  assert.is(entry.attempts, 3);
  assert.match(entry.error, /HTTP 503.*gave up after 3 attempts/);
  assert.is(postCalls(li) - before, 3);
  li.planPosts(); // the fourth plan is left unused
  const notifications = (await h.json<ApiBody<"getNotifications">>("/api/notifications?limit=5")).body.notifications ?? [];
  assert.ok(notifications.some((n) => /Publishing to linkedin failed/.test(n.title)), JSON.stringify(notifications));
});

t("a 4xx other than 429 fails at once, and a credential the platform echoes is stored redacted", async ({ h, li }) => {
  const before = postCalls(li);
  li.script("POST /rest/posts", { status: 422, json: { status: 422, message: `Unprocessable: token ${LINKEDIN_TOKEN_VALUE} cannot post this` } });
  const id = await requestPost(h, "Refused");
  await approve(h, id);
  const [entry] = await settled(h, id);
  assert.is(entry.status, "failed");
  assert.is(postCalls(li) - before, 1);
  assert.not.ok(entry.error.includes(LINKEDIN_TOKEN_VALUE), entry.error);
  assert.match(entry.error, /\[redacted:LINKEDIN_ACCESS_TOKEN\]/);
});

t("executing the same approval again queues and sends nothing", async ({ h, li }) => {
  const id = await requestPost(h, "Exactly once");
  const approval = await approve(h, id);
  await settled(h, id);
  const posts = li.posts.length;
  const action = probe.ctx!.gate.action("publishing.publish")!;
  const again = (await action.execute(approval.payload, { approvalId: id, decidedBy: "owner" })) as { outbox: { id: string }[] };
  assert.is(again.outbox.length, 1);
  assert.is(again.outbox[0]!.id, (approval.executionResult as { outbox: { id: string }[] }).outbox[0]!.id, "the same entry, not a new one");
  assert.is((await outbox(h, `approvalId=${id}`)).length, 1);
  assert.is(li.posts.length, posts);
});

sqliteFileTest(t, "leaves an entry publishing by writing muster.db (crash simulation)")("a send cut short by a crash is found `publishing` at start and becomes unknown, never re-sent", async (ctx) => {
  const { li } = ctx;
  // Scheduled an hour ahead, so nothing sends it before the simulated crash.
  const draft = await ctx.h.json<ApiBody<"postContentDrafts">>("/api/content/drafts", { method: "POST", body: { text: "Crash test", platforms: ["linkedin"] } });
  const requested = await ctx.h.json<ApiBody<"postContentPublish">>("/api/content/publish", { method: "POST", body: { draftId: draft.body.draft.id, scheduledAt: new Date(Date.now() + 3_600_000).toISOString() } });
  assert.is(requested.status, 202, JSON.stringify(requested.body));
  const id = String(requested.body.approval.id);
  await approve(ctx.h, id);
  const calls = postCalls(li);
  await ctx.h.stop();
  // What a kill -9 mid-send leaves behind: the entry claimed (publishing) and no outcome.
  const db = new BetterSqlite3(join(ctx.h.home, "muster.db"));
  assert.is(db.prepare("UPDATE publishing_outbox SET status = 'publishing', attempts = 1 WHERE approvalId = ?").run(id).changes, 1);
  db.close();
  ctx.h = await startTestHost(publishingOptions({ linkedin: li.url }, { requestTimeoutMs: scaled(300) }, { home: ctx.h.home, extraPlugins: [probePlugin] }));
  const [entry] = await outbox(ctx.h, `approvalId=${id}`);
  assert.is(entry.status, "unknown");
  assert.match(entry.error, /stopped while this post was being sent/);
  assert.is(postCalls(li), calls);
  const d = (await ctx.h.json<ApiBody<"getContentDraftsById">>(`/api/content/drafts/${draft.body.draft.id}`)).body.draft;
  assert.is(d.status, "failed");
  assert.is(d.results[0]?.status, "unknown");
});

t.run();
