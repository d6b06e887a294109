// Content drafts, platforms and POST /api/content/publish through HTTP against the LinkedIn,
// X and blog fakes: CRUD and the draft state machine, checks before any approval exists
// (platform unknown, not configured, over limits), one post per platform after approval,
// one approval at a time, rejection, and scheduled publishing across restarts.
import { suite } from "uvu";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import * as assert from "uvu/assert";
import { sqliteFileTest } from "../../helpers/database-file.ts";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { BLOG_TOKEN, startBlogFake, type BlogFake } from "../../helpers/platform-fakes/blog.ts";
import { LINKEDIN_TOKEN_VALUE, startLinkedInFake, type LinkedInFake } from "../../helpers/platform-fakes/linkedin.ts";
import { startXFake, X_CREDENTIALS, type XFake } from "../../helpers/platform-fakes/x.ts";
import { sleep, waitUntil } from "../../helpers/wait.ts";
import { approve, decide, outbox, pendingCount, setSecret, settled, startPublishingHost } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

interface Ctx {
  h: TestHost;
  li: LinkedInFake;
  x: XFake;
  blog: BlogFake;
}
const t = suite<Ctx>("content drafts and publishing");
t.before(async (ctx) => {
  [ctx.li, ctx.x, ctx.blog] = await Promise.all([startLinkedInFake(), startXFake(), startBlogFake()]);
  ctx.h = await startPublishingHost({ linkedin: ctx.li.url, x: ctx.x.url });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  await Promise.all([ctx.li.close(), ctx.x.close(), ctx.blog.close()]);
  removeHome(ctx.h.home);
});

const createDraft = async (h: TestHost, body: Record<string, unknown>) => {
  const res = await h.json<ApiBody<"postContentDrafts">>("/api/content/drafts", { method: "POST", body });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.draft;
};
const patch = (h: TestHost, id: string, body: unknown) => h.json<ApiBody<"patchContentDraftsById">>(`/api/content/drafts/${id}`, { method: "PATCH", body });
const publish = (h: TestHost, body: unknown) => h.json<ApiBody<"postContentPublish">>("/api/content/publish", { method: "POST", body });
const draftOf = async (h: TestHost, id: string) => (await h.json<ApiBody<"getContentDraftsById">>(`/api/content/drafts/${id}`)).body.draft;

t("platforms: LinkedIn, X and the blog with their limits, configured only once their secret is stored", async ({ h, blog }) => {
  const before = (await h.json<ApiBody<"getContentPlatforms">>("/api/content/platforms")).body;
  assert.is(before.ok, true);
  assert.equal(before.platforms.map((p) => [p.id, p.configured]), [["linkedin", false], ["x", false], ["blog", false]]);
  assert.equal(before.platforms[0]?.limits, { maxLength: 3000, maxHashtags: 7, maxMedia: 1, mediaTypes: ["image/jpeg", "image/png", "image/gif"] });
  assert.is(before.platforms[1]?.limits.maxLength, 280);
  await setSecret(h, "LINKEDIN_ACCESS_TOKEN", LINKEDIN_TOKEN_VALUE);
  await setSecret(h, "BLOG_API_KEY", JSON.stringify({ endpoint: "not a url" }));
  const half = (await h.json<ApiBody<"getContentPlatforms">>("/api/content/platforms")).body.platforms;
  assert.equal(half.map((p) => p.configured), [true, false, false], "a malformed BLOG_API_KEY is not configured");
  await setSecret(h, "BLOG_API_KEY", JSON.stringify({ endpoint: `${blog.url}/hook`, token: BLOG_TOKEN }));
  assert.not.ok(JSON.stringify((await h.json<ApiBody<"getContentPlatforms">>("/api/content/platforms")).body).includes(BLOG_TOKEN));
});

t("drafts: create, read, list, edit; the title defaults to the text's first line", async ({ h }) => {
  const draft = await createDraft(h, { text: "First line\nsecond line", platforms: ["linkedin"] });
  assert.is(draft.status, "draft");
  assert.is(draft.title, "First line");
  assert.equal(draft.results, []);
  assert.equal(await draftOf(h, draft.id), draft);
  const edited = await patch(h, draft.id, { text: "Better text", media: [{ url: "https://example.test/a.png" }] });
  assert.is(edited.status, 200);
  assert.is(edited.body.draft.text, "Better text");
  assert.ok(edited.body.draft.updatedAt >= draft.updatedAt);
  const list = (await h.json<ApiBody<"getContentDrafts">>("/api/content/drafts?limit=5")).body.drafts;
  assert.is(list[0]?.id, draft.id);
  assert.ok((await h.json<ApiBody<"getContentDrafts">>("/api/content/drafts?status=published")).body.drafts.every((d) => d.status === "published"));
});

t("drafts: bad input is refused with 400 and nothing is stored", async ({ h }) => {
  const count = (await h.json<ApiBody<"getContentDrafts">>("/api/content/drafts?limit=200")).body.drafts.length;
  for (const body of [{}, { text: "" }, { text: 5 }, { text: "x", platforms: ["myspace"] }, { text: "x", media: [{ url: "javascript:alert(1)" }] }, { text: "x", status: "published" }, { text: "x", id: "mine" }]) {
    const res = await h.json<ApiBody<"postContentDrafts">>("/api/content/drafts", { method: "POST", body });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.ok(["VALIDATION_FAILED", "PUBLISH_UNKNOWN_PLATFORM"].includes(String(res.body.error?.code)), res.body.error?.code);
  }
  assert.is((await h.json<ApiBody<"getContentDrafts">>("/api/content/drafts?limit=200")).body.drafts.length, count);
  for (const id of ["..", "%2e%2e", "a/b", "x".repeat(200)]) assert.ok([400, 404].includes((await h.json<ApiBody<"getContentDraftsById">>(`/api/content/drafts/${id}`)).status), id);
  assert.is((await h.json<ApiBody<"getContentDraftsById">>("/api/content/drafts/00000000-0000-0000-0000-000000000000")).body.error?.code, "CONTENT_DRAFT_NOT_FOUND");
});

t("the draft state machine: only the manual transitions are allowed; approved and later come from the gate", async ({ h }) => {
  const draft = await createDraft(h, { text: "States" });
  for (const to of ["approved", "scheduled", "publishing", "published", "failed", "rejected"]) {
    const res = await patch(h, draft.id, { status: to });
    assert.is(res.status, 409, to);
    assert.is(res.body.error?.code, "CONTENT_DRAFT_INVALID_TRANSITION");
  }
  assert.is((await patch(h, draft.id, { status: "review" })).body.draft.status, "review");
  assert.is((await patch(h, draft.id, { status: "rejected" })).body.draft.status, "rejected");
  assert.is((await patch(h, draft.id, { status: "draft" })).body.draft.status, "draft");
  assert.is((await draftOf(h, draft.id)).status, "draft");
});

t("delete needs the session token; a deleted draft is gone", async ({ h }) => {
  const draft = await createDraft(h, { text: "Doomed" });
  const denied = await h.json<ApiBody<"deleteContentDraftsById">>(`/api/content/drafts/${draft.id}`, { method: "DELETE" });
  assert.is(denied.status, 401);
  assert.is((await h.json<ApiBody<"deleteContentDraftsById">>(`/api/content/drafts/${draft.id}`, { method: "DELETE", session: true })).status, 200);
  assert.is((await h.json<ApiBody<"getContentDraftsById">>(`/api/content/drafts/${draft.id}`)).status, 404);
});

t("publish is refused before any approval exists: unconfigured platform (409), over a limit (400), no platform, unknown draft", async ({ h }) => {
  const pending = await pendingCount(h);
  const draft = await createDraft(h, { text: "x".repeat(300), platforms: ["x"] });
  const notConfigured = await publish(h, { draftId: draft.id });
  assert.is(notConfigured.status, 409);
  assert.is(notConfigured.body.error?.code, "PUBLISH_NOT_CONFIGURED");
  await setSecret(h, "TWITTER_API_KEY", JSON.stringify(X_CREDENTIALS));
  const tooLong = await publish(h, { draftId: draft.id });
  assert.is(tooLong.status, 400);
  assert.is(tooLong.body.error?.code, "CONTENT_OVER_LIMIT");
  assert.match(JSON.stringify(tooLong.body.error?.details), /300 characters; at most 280/);
  const media = await createDraft(h, { text: "pic", platforms: ["x"], media: [{ url: "https://example.test/a.png" }] });
  assert.is((await publish(h, { draftId: media.id })).body.error?.code, "CONTENT_OVER_LIMIT");
  const none = await createDraft(h, { text: "nowhere" });
  assert.is((await publish(h, { draftId: none.id })).body.error?.code, "CONTENT_NO_PLATFORMS");
  assert.is((await publish(h, { draftId: "00000000-0000-0000-0000-000000000000" })).status, 404);
  assert.is((await publish(h, { draftId: none.id, platforms: ["myspace"] })).status, 400);
  for (const scheduledAt of [new Date(Date.now() - 60_000).toISOString(), "2026-02-30T10:00:00Z", "tomorrow", new Date(Date.now() + 400 * 86_400_000).toISOString()]) {
    assert.is((await publish(h, { draftId: draft.id, platforms: ["linkedin"], scheduledAt })).status, 400, scheduledAt);
  }
  assert.is(await pendingCount(h), pending);
  assert.is((await draftOf(h, draft.id)).status, "draft");
});

t("publishing to three platforms: one approval with the exact content, then exactly one post at each", async ({ h, li, x, blog }) => {
  const text = "Three ways #launch";
  const draft = await createDraft(h, { title: "Launch", text, platforms: ["linkedin", "x", "blog"] });
  const res = await publish(h, { draftId: draft.id });
  assert.is(res.status, 202, JSON.stringify(res.body));
  const approval = res.body.approval;
  assert.equal(approval.payload, { draftId: draft.id, title: "Launch", text, media: [], platforms: ["linkedin", "x", "blog"], scheduledAt: null });
  assert.is((await draftOf(h, draft.id)).status, "review");
  // One approval at a time, and the content is fixed while it is pending.
  assert.is((await publish(h, { draftId: draft.id })).body.error?.code, "CONTENT_PUBLISH_IN_PROGRESS");
  assert.is((await patch(h, draft.id, { text: "sneaky edit" })).body.error?.code, "CONTENT_DRAFT_LOCKED");
  assert.is((await h.json<ApiBody<"deleteContentDraftsById">>(`/api/content/drafts/${draft.id}`, { method: "DELETE", session: true })).body.error?.code, "CONTENT_DRAFT_LOCKED");
  const counts = { li: li.posts.length, x: x.posts.length, blog: blog.posts.length };

  await approve(h, String(approval.id));
  const entries = await settled(h, String(approval.id));
  assert.equal(entries.map((e) => e.status), ["published", "published", "published"]);
  assert.equal({ li: li.posts.length - counts.li, x: x.posts.length - counts.x, blog: blog.posts.length - counts.blog }, { li: 1, x: 1, blog: 1 });
  assert.is(x.posts.at(-1)!.text, text);
  assert.match(x.posts.at(-1)!.authorization, /oauth_signature_method="HMAC-SHA1"/);
  const delivered = blog.posts.at(-1)!;
  assert.equal(delivered.body, { title: "Launch", text, media: [] });
  assert.is(delivered.idempotencyKey, entries.find((e) => e.platform === "blog").id);
  const done = await waitUntil(async () => {
    const d = await draftOf(h, draft.id);
    return d.status === "published" ? d : null;
  }, { label: "draft published" });
  assert.equal(done.results.map((r) => [r.platform, r.status]).sort(), [["blog", "published"], ["linkedin", "published"], ["x", "published"]]);
  assert.is((await patch(h, draft.id, { text: "after the fact" })).body.error?.code, "CONTENT_DRAFT_LOCKED");
});

t("a rejected publish approval rejects the draft and sends nothing", async ({ h, li }) => {
  const draft = await createDraft(h, { text: "Not this one", platforms: ["linkedin"] });
  const res = await publish(h, { draftId: draft.id });
  const posts = li.posts.length;
  assert.is((await decide(h, String(res.body.approval.id), "rejected")).status, 200);
  await waitUntil(async () => (await draftOf(h, draft.id)).status === "rejected", { label: "draft rejected" });
  assert.equal(await outbox(h, `approvalId=${res.body.approval.id}`), []);
  assert.is(li.posts.length, posts);
  // Back to draft, it can be sent again.
  assert.is((await patch(h, draft.id, { status: "draft" })).body.draft.status, "draft");
});

sqliteFileTest(t, "changes the approved text in muster.db (TOCTOU)")("content changed in the database after the request (TOCTOU) is never published; the draft becomes failed", async ({ h, li }) => {
  const draft = await createDraft(h, { text: "The approved words", platforms: ["linkedin"] });
  const res = await publish(h, { draftId: draft.id });
  const id = String(res.body.approval.id);
  // Fault injection: the approved text is changed in the stored approval after the request.
  const db = new BetterSqlite3(join(h.home, "muster.db"));
  try {
    const row = db.prepare("SELECT payload FROM approvals_approvals WHERE id = ?").get(id) as { payload: string };
    db.prepare("UPDATE approvals_approvals SET payload = ? WHERE id = ?").run(row.payload.replace("The approved words", "Words nobody approved"), id);
  } finally {
    db.close();
  }
  const posts = li.posts.length;
  const decided = await decide(h, id, "approved");
  assert.is(decided.body.approval.executionStatus, "failed");
  assert.match(String(decided.body.approval.executionError), /PAYLOAD_INTEGRITY/);
  await waitUntil(async () => (await draftOf(h, draft.id)).status === "failed", { label: "draft failed" });
  assert.equal(await outbox(h, `approvalId=${id}`), []);
  assert.is(li.posts.length, posts);
});

t("scheduled publishing survives restarts: a future entry is re-armed, a due one runs at start", async (ctx) => {
  const { li } = ctx;
  const future = await createDraft(ctx.h, { text: "Later", platforms: ["linkedin"] });
  const overdue = await createDraft(ctx.h, { text: "Due while stopped", platforms: ["linkedin"] });
  const at = new Date(Date.now() + 2_500).toISOString();
  const soon = new Date(Date.now() + 1_000).toISOString();
  // The draft's own scheduledAt is the default time.
  assert.is((await patch(ctx.h, future.id, { scheduledAt: at })).status, 200);
  const a = (await publish(ctx.h, { draftId: future.id })).body.approval;
  assert.is((a.payload as { scheduledAt?: string }).scheduledAt, at);
  const b = (await publish(ctx.h, { draftId: overdue.id, scheduledAt: soon })).body.approval;
  await approve(ctx.h, String(a.id));
  await approve(ctx.h, String(b.id));
  const scheduled = await draftOf(ctx.h, future.id);
  assert.is(scheduled.status, "scheduled");
  assert.is(scheduled.scheduledAt, at);
  const posts = li.posts.length;
  await ctx.h.stop();
  // Stopped past the second entry's time: nothing can send it until the next start.
  await sleep(Math.max(0, Date.parse(soon) - Date.now()) + 100);
  ctx.h = await ctx.h.restart();
  const [due] = await settled(ctx.h, String(b.id));
  assert.is(due.status, "published");
  const [later] = await settled(ctx.h, String(a.id), 6_000);
  assert.is(later.status, "published");
  assert.is(li.posts.length - posts, 2);
  const sentAt = li.calls("POST /rest/posts").at(-1)!.at;
  assert.ok(sentAt >= Date.parse(at), "not sent before its scheduled time");
  assert.is((await draftOf(ctx.h, future.id)).status, "published");
});

t.run();
