// /api/professional-network through HTTP against a local fake speaking LinkedIn's shapes:
// the connection, the gated post (nothing leaves before approval, exactly one post after),
// rejection, images, and the bad inputs of catalogue group H.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { removeHome, withTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { LINKEDIN_TOKEN_VALUE, PNG, startLinkedInFake, type LinkedInFake } from "../../helpers/platform-fakes/linkedin.ts";
import { approve, decide, outbox, pendingCount, publishingOptions, setSecret, settled, startPublishingHost } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost; li: LinkedInFake }>("professional network");
t.before(async (ctx) => {
  ctx.li = await startLinkedInFake();
  // The fake serves the images on 127.0.0.1, which the default address policy refuses (tested below).
  ctx.h = await startPublishingHost({ linkedin: ctx.li.url }, { blockedAddressRanges: [] });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  await ctx.li.close();
  removeHome(ctx.h.home);
});

const post = (h: TestHost, body: unknown, headers: Record<string, string> = {}) => h.json<ApiBody<"postProfessionalNetwork">>("/api/professional-network", { method: "POST", body, headers });

t("without the token: not connected, and a post is refused with 409 PUBLISH_NOT_CONFIGURED with nothing queued", async ({ h, li }) => {
  const status = await h.json<ApiBody<"getProfessionalNetwork">>("/api/professional-network");
  assert.is(status.status, 200);
  assert.is(status.body.connected, false);
  assert.is(status.body.profile, null);
  const res = await post(h, { text: "Hello network" });
  assert.is(res.status, 409);
  assert.is(res.body.error?.code, "PUBLISH_NOT_CONFIGURED");
  assert.is(await pendingCount(h), 0);
  assert.is(li.requests.length, 0);
});

t("bad bodies are refused with 400 before anything is queued", async ({ h }) => {
  await setSecret(h, "LINKEDIN_ACCESS_TOKEN", LINKEDIN_TOKEN_VALUE);
  for (const body of [{}, { text: "" }, { text: "x".repeat(3001) }, { text: 42 }, { text: "hi", imageUrl: "javascript:alert(1)" }, { text: "hi", imageUrl: "data:image/png;base64,AAAA" }, { text: "hi", imageUrl: "file:///etc/passwd" }, { text: "hi", extra: true }]) {
    const res = await post(h, body);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error?.code, "VALIDATION_FAILED");
  }
  // Over the network's hashtag limit (7): refused by the platform check, still before an approval.
  const tags = await post(h, { text: "#a #b #c #d #e #f #g #h" });
  assert.is(tags.status, 400);
  assert.is(tags.body.error?.code, "CONTENT_OVER_LIMIT");
  assert.is(await pendingCount(h), 0);
});

t("with the token: connected, with the userinfo profile; a refused token is not connected, with a reason that never quotes it", async ({ h, li }) => {
  const ok = await h.json<ApiBody<"getProfessionalNetwork">>("/api/professional-network");
  assert.equal(ok.body, { ok: true, connected: true, profile: li.profile });
  await setSecret(h, "LINKEDIN_ACCESS_TOKEN", "revoked-token-value-123");
  const refused = await h.json<ApiBody<"getProfessionalNetwork">>("/api/professional-network");
  assert.is(refused.body.connected, false);
  assert.is(refused.body.profile, null);
  assert.match(String(refused.body.reason), /401/);
  assert.not.ok(JSON.stringify(refused.body).includes("revoked-token-value-123"));
  await setSecret(h, "LINKEDIN_ACCESS_TOKEN", LINKEDIN_TOKEN_VALUE);
});

t("a post waits for approval; approving publishes exactly one post with LinkedIn's shape", async ({ h, li }) => {
  const text = "Shipping the outbox today (with care) #muster";
  const res = await post(h, { text });
  assert.is(res.status, 202, JSON.stringify(res.body));
  const approval = res.body.approval;
  assert.is(approval.status, "pending");
  assert.is(approval.command, "publishing.publish");
  assert.equal(approval.payload, { draftId: null, title: text, text, media: [], platforms: ["linkedin"], scheduledAt: null });
  assert.is(li.posts.length, 0, "nothing leaves before the approval");

  await approve(h, String(approval.id));
  const [entry] = await settled(h, String(approval.id));
  assert.is(entry.status, "published");
  assert.is(li.posts.length, 1);
  const sent = li.posts[0];
  assert.is(sent.author, `urn:li:person:${li.profile.sub}`);
  assert.is(sent.commentary, "Shipping the outbox today \\(with care\\) #muster");
  assert.is(sent.lifecycleState, "PUBLISHED");
  assert.is(sent.visibility, "PUBLIC");
  assert.is(sent.distribution.feedDistribution, "MAIN_FEED");
  const call = li.calls("POST /rest/posts")[0]!;
  assert.is(call.headers["linkedin-version"], "202506");
  assert.is(call.headers["x-restli-protocol-version"], "2.0.0");
  // The URN from x-restli-id is kept as is (the reference implementation prefixed it twice).
  assert.is(entry.postId, "urn:li:share:700000000000001");
  assert.is(entry.postUrl, "https://www.linkedin.com/feed/update/urn:li:share:700000000000001");
  assert.is(entry.attempts, 1);
});

t("rejecting a post publishes nothing and queues nothing", async ({ h, li }) => {
  const before = li.posts.length;
  const res = await post(h, { text: "Never to be seen" });
  const rejected = await decide(h, String(res.body.approval.id), "rejected");
  assert.is(rejected.status, 200);
  assert.equal(await outbox(h, `approvalId=${res.body.approval.id}`), []);
  assert.is(li.posts.length, before);
});

t("an image post uploads the image (initializeUpload, PUT) and references it in the post", async ({ h, li }) => {
  const res = await post(h, { text: "With a picture", imageUrl: `${li.url}/media/pic.png` });
  assert.is(res.status, 202, JSON.stringify(res.body));
  await approve(h, String(res.body.approval.id));
  const [entry] = await settled(h, String(res.body.approval.id));
  assert.is(entry.status, "published", entry.error);
  const init = li.calls("POST /rest/images").at(-1)!;
  assert.equal(init.json, { initializeUploadRequest: { owner: `urn:li:person:${li.profile.sub}` } });
  const upload = li.requests.filter((r) => r.method === "PUT").at(-1)!;
  assert.ok(upload.body.equals(PNG), "the uploaded bytes are the fetched image");
  assert.equal(li.posts.at(-1).content, { media: { id: "urn:li:image:C4E1" } });
});

t("an image URL that is not an accepted image fails the entry before anything is posted", async ({ h, li }) => {
  const before = li.posts.length;
  const res = await post(h, { text: "With a page", imageUrl: `${li.url}/media/page.html` });
  await approve(h, String(res.body.approval.id));
  const [entry] = await settled(h, String(res.body.approval.id));
  assert.is(entry.status, "failed");
  assert.match(entry.error, /text\/html/);
  assert.is(li.posts.length, before);
});

t("by default a media URL on a loopback or private address is never fetched: the entry fails before anything is posted", async ({ li }) => {
  await withTestHost(publishingOptions({ linkedin: li.url }), async (h) => {
    await setSecret(h, "LINKEDIN_ACCESS_TOKEN", LINKEDIN_TOKEN_VALUE);
    const port = new URL(li.url).port;
    const before = { posts: li.posts.length, media: li.requests.filter((r) => r.path.startsWith("/media/")).length };
    for (const imageUrl of [`${li.url}/media/pic.png`, `http://localhost:${port}/media/pic.png`, "http://169.254.169.254/latest/meta-data/x.png", "http://10.0.0.1/a.png"]) {
      const res = await post(h, { text: "Steal", imageUrl });
      assert.is(res.status, 202, JSON.stringify(res.body));
      await approve(h, String(res.body.approval.id));
      const [entry] = await settled(h, String(res.body.approval.id));
      assert.is(entry.status, "failed", imageUrl);
      assert.match(entry.error, /may not reach/, imageUrl);
    }
    assert.is(li.requests.filter((r) => r.path.startsWith("/media/")).length, before.media, "the local image server was never asked");
    assert.is(li.posts.length, before.posts);
  });
});

t("a locked vault (no passphrase): not connected, with the reason; a post is refused without queuing anything", async ({ li }) => {
  await withTestHost(publishingOptions({ linkedin: li.url }, {}, { config: { vaultKey: null } }), async (h) => {
    const status = await h.json<ApiBody<"getProfessionalNetwork">>("/api/professional-network");
    assert.is(status.status, 200);
    assert.is(status.body.connected, false);
    assert.match(String(status.body.reason), /VAULT_LOCKED/);
    const res = await post(h, { text: "Hello" });
    assert.is(res.status, 503);
    assert.is(res.body.error?.code, "VAULT_LOCKED");
    assert.is(await pendingCount(h), 0);
  });
});

t.run();
