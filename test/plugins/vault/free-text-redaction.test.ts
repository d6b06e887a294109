// Issue 22 finding 10 (catalogue case 22): free text an agent writes was not checked against
// the vault, so a secret value copied into an activity was stored and streamed verbatim.
// Activities, notifications and work records now pass their free-text fields through the
// host's redaction (the vault behind `hostTokens.redaction`) before storing: the stored row,
// the API answer, the list and the SSE event all carry `[redacted:<NAME>]` (for a JSON
// credential, also for its inner token), and the database files never hold the plaintext.
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { openSse, type SseConnection } from "../../helpers/sse-client.ts";
import { removeHome, startTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const PLAIN = "ghp_freeTextLeak0123456789abcdef";
const ACCESS = "blog-inner-token-5e8c1d77";
const CREDENTIAL = JSON.stringify({ accessToken: ACCESS, user: "ok" });
const SECRETS = [PLAIN, ACCESS];

const t = suite<{ h: TestHost; sse: SseConnection }>("vault free-text redaction");

t.before(async (ctx) => {
  ctx.h = await startTestHost({ config: { vaultKey: "free-text redaction passphrase" } });
  for (const [name, value] of [["GITHUB_TOKEN", PLAIN], ["BLOG_API_KEY", CREDENTIAL]]) {
    const stored = await ctx.h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: { name, value } });
    assert.is(stored.status, 201, JSON.stringify(stored.body));
  }
  ctx.sse = await openSse(ctx.h.url);
});
t.after(async (ctx) => {
  ctx.sse.close();
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

const leaks = (value: unknown) => SECRETS.filter((s) => JSON.stringify(value).includes(s));
const text = `deployed with ${PLAIN}; blog token ${ACCESS}`;
const REDACTED = "deployed with [redacted:GITHUB_TOKEN]; blog token [redacted:BLOG_API_KEY]";

/** The SSE event frame of a bus event whose payload matches. */
// `payload: any`: the SSE event payload as parsed JSON, matched field by field.
const eventFrame = (sse: SseConnection, name: string, match: (payload: any) => boolean) =>
  sse.next((f) => f.data?.type === "event" && f.data.name === name && match(f.data.payload), 10_000, name);

t("an activity: stored, answered, listed and streamed redacted", async ({ h, sse }) => {
  const res = await h.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: { agentId: "loki", action: "note", target: `repo ${PLAIN}`, details: text } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal({ details: res.body.details, target: res.body.target }, { details: REDACTED, target: "repo [redacted:GITHUB_TOKEN]" });
  const listed = (await h.json<ApiBody<"getActivities">>("/api/activities?limit=50")).body as { id: string; details: string }[];
  assert.is(listed.find((a) => a.id === res.body.id)?.details, REDACTED);
  assert.equal(leaks(listed), []);
  const frame = await eventFrame(sse, "activities.activity.created", (p) => p.id === res.body.id);
  assert.equal(leaks(frame.raw), []);
  assert.is(frame.data.payload.details, REDACTED);
});

t("a task: title, description and notes redacted on create and on update, listed and streamed", async ({ h, sse }) => {
  const created = await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: `rotate ${PLAIN}`, description: text, notes: ACCESS } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.equal(
    { title: created.body.title, description: created.body.description, notes: created.body.notes },
    { title: "rotate [redacted:GITHUB_TOKEN]", description: REDACTED, notes: "[redacted:BLOG_API_KEY]" },
  );
  const updated = await h.json<ApiBody<"patchTasksById">>(`/api/tasks/${created.body.id}`, { method: "PATCH", body: { notes: `now ${PLAIN}` } });
  assert.is(updated.status, 200, JSON.stringify(updated.body));
  assert.is(updated.body.notes, "now [redacted:GITHUB_TOKEN]");
  assert.equal(leaks((await h.json<ApiBody<"getTasksById">>(`/api/tasks/${created.body.id}`)).body), []);
  assert.equal(leaks((await h.json<ApiBody<"getTasks">>("/api/tasks")).body), []);
  const createdFrame = await eventFrame(sse, "work.task.created", (p) => p.id === created.body.id);
  const updatedFrame = await eventFrame(sse, "work.task.updated", (p) => p.id === created.body.id);
  assert.equal(leaks(createdFrame.raw + updatedFrame.raw), []);
  assert.is(updatedFrame.data.payload.notes, "now [redacted:GITHUB_TOKEN]");
});

t("a notification: title and body redacted, listed and streamed", async ({ h, sse }) => {
  const res = await h.json<ApiBody<"postNotifications">>("/api/notifications", { method: "POST", body: { type: "system", title: `key ${PLAIN}`, body: text } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal({ title: res.body.notification.title, body: res.body.notification.body }, { title: "key [redacted:GITHUB_TOKEN]", body: REDACTED });
  assert.equal(leaks((await h.json<ApiBody<"getNotifications">>("/api/notifications")).body), []);
  const frame = await eventFrame(sse, "notifications.notification.created", (p) => p.id === res.body.notification.id);
  assert.equal(leaks(frame.raw), []);
});

t("the database files never hold the plaintext (the vault keeps only ciphertext)", async ({ h }) => {
  for (const file of ["muster.db", "muster.db-wal"].map((f) => join(h.home, f)).filter(existsSync)) {
    const bytes = readFileSync(file);
    for (const secret of SECRETS) assert.is(bytes.indexOf(secret), -1, `${secret} found in ${file}`);
  }
});

t.run();
