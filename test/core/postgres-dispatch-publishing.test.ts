// Dispatch's and publishing's stores off `db.sql` (issue 25), on hosts on a real, throwaway
// PostgreSQL: dispatch (a task's start and a review's opening serialised per task, a review's
// decision and the start-up sweep as conditional updates) and publishing (a draft's take for
// a publish request, the outbox's enqueue, claim, settle and sweep). Their SQLite suites stay
// under test/plugins/dispatch and test/plugins/publishing. One cluster for the file, always
// stopped; skipped, with the reason printed, where PostgreSQL's server binaries are missing.
//
// Both plugins start on PostgreSQL with what they require, and the draft flow runs over HTTP.
// The steps are driven and raced through a probe plugin that builds the plugin's own stores on
// the host's database: a dispatch starts from a task, whose create in the work plugin is still
// on `db.sql`, and a publish request reads the vault, also still on `db.sql` (docs/team.md).
import * as assert from "uvu/assert";
import { randomUUID } from "node:crypto";
import { definePlugin, defineRoutes, defineService, hostTokens, token, z, type Database } from "@muster/plugin";
import { activitiesPlugin } from "../../plugins/activities/index.ts";
import { approvalsPlugin } from "../../plugins/approvals/index.ts";
import { chatPlugin } from "../../plugins/chat/index.ts";
import { dispatchPlugin } from "../../plugins/dispatch/index.ts";
import { DispatchStore } from "../../plugins/dispatch/services/dispatch-store.ts";
import { ReviewStore } from "../../plugins/dispatch/services/review-store.ts";
import { notificationsPlugin } from "../../plugins/notifications/index.ts";
import { publishingPlugin } from "../../plugins/publishing/index.ts";
import { DraftStore } from "../../plugins/publishing/services/draft-store.ts";
import { OutboxStore } from "../../plugins/publishing/services/outbox-store.ts";
import { vaultPlugin } from "../../plugins/vault/index.ts";
import { workPlugin } from "../../plugins/work/index.ts";
import type { ApiBody } from "@muster/plugin/testing";
import { withTestHost } from "../helpers/start-test-host.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";

const { t, test, database } = postgresSuite("dispatch and publishing on PostgreSQL");

/** How many racers a race starts at once. */
const RACERS = 20;
const DB = token<() => Database>("pg-steps.db");

/** Drives the two plugins' stores over HTTP; each `race` route runs `RACERS` calls of one step at once and says how many won. */
const probePlugin = definePlugin({
  id: "pg-steps",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/pg-steps"],
  optionalDependsOn: ["dispatch", "publishing"],
  register(ctx) {
    ctx.provide(defineService({ token: DB, deps: { db: hostTokens.db }, create: ({ db }) => () => db as Database }));
  },
  routes: defineRoutes({
    deps: { db: DB },
    mount(router, { db }) {
      const race = async (step: () => Promise<boolean>) => ({ ok: true, won: (await Promise.all(Array.from({ length: RACERS }, step))).filter(Boolean).length });
      const now = () => new Date().toISOString();
      const task = z.object({ taskId: z.string() });

      router.post("/api/pg-steps/dispatch-start", { summary: "Race a task's start", body: task }, ({ body }) => {
        const store = new DispatchStore(db);
        const row = () => ({ id: randomUUID(), taskId: body.taskId, agentId: "odin", status: "running" as const, previousStatus: "backlog", sessionKey: `s:${body.taskId}`, output: null, error: null, inputTokens: null, outputTokens: null, createdAt: now(), finishedAt: null, taskSettledAt: null });
        return race(async () => (await store.start(row())).started);
      });
      router.post("/api/pg-steps/dispatch-sweep", { summary: "The start-up sweep, then the dispatches", body: z.object({}) }, async () => {
        const store = new DispatchStore(db);
        const interrupted = await store.interruptRunning("stopped", now());
        return { ok: true, interrupted, dispatches: await store.list(100) };
      });
      router.post("/api/pg-steps/review-open", { summary: "Race a task's review opening", body: task }, ({ body }) => {
        const store = new ReviewStore(db);
        return race(async () => (await store.open(body.taskId, now())) !== null);
      });
      router.post("/api/pg-steps/review-link", { summary: "Links the task's pending review to an approval", body: z.object({ taskId: z.string(), approvalId: z.string() }) }, async ({ body }) => {
        const store = new ReviewStore(db);
        const [review] = (await store.unlinked()).filter((r) => r.taskId === body.taskId);
        await store.attachApproval(review!.id, body.approvalId);
        return { ok: true, pending: await store.hasPending(body.taskId) };
      });
      router.post("/api/pg-steps/review-resolve", { summary: "Race a review's decision", body: z.object({ approvalId: z.string(), taskId: z.string() }) }, async ({ body }) => {
        const store = new ReviewStore(db);
        const raced = await race(async () => (await store.resolve({ id: body.approvalId, taskId: body.taskId }, "approved", now())) !== null);
        return { ...raced, pending: await store.hasPending(body.taskId) };
      });
      router.post("/api/pg-steps/episode", { summary: "Race a blocked episode's start, then end it", body: task }, async ({ body }) => {
        const store = new ReviewStore(db);
        const raced = await race(() => store.startBlockedEpisode(body.taskId, now()));
        await store.endBlockedEpisode(body.taskId);
        return { ...raced, again: await store.startBlockedEpisode(body.taskId, now()) };
      });

      router.post("/api/pg-steps/draft", { summary: "A new draft; edits it while unlocked", body: z.object({}) }, async () => {
        const store = new DraftStore(db);
        const id = randomUUID();
        await store.insert({ id, title: "Launch", text: "We ship", platforms: "[]", media: "[]", status: "draft", approvalId: null, scheduledAt: null, results: "[]", createdAt: now(), updatedAt: now() });
        const edited = await store.edit(id, { title: "Launch day", status: "review" }, "draft", now());
        const staleMove = await store.edit(id, { status: "draft" }, "rejected", now());
        return { ok: true, id, edited, staleMove, draft: await store.get(id) };
      });
      router.post("/api/pg-steps/draft-take", { summary: "Race a draft's take for a publish request, then settle the winner's marker", body: z.object({ draftId: z.string() }) }, async ({ body }) => {
        const store = new DraftStore(db);
        const markers: string[] = [];
        const raced = await race(async () => {
          const marker = `requesting:${randomUUID()}`;
          const before = await store.takeForPublish(body.draftId, marker, now());
          if (before) markers.push(marker);
          return before !== null;
        });
        await store.settleMarker(body.draftId, markers[0]!, { approvalId: "approval-1" }, now());
        const locked = { edit: await store.edit(body.draftId, { title: "x" }, null, now()), delete: await store.delete(body.draftId) };
        const ended = await store.endWaitFor(body.draftId, "approval-1", "rejected", now());
        return { ...raced, locked, ended, draft: await store.get(body.draftId) };
      });
      router.post("/api/pg-steps/outbox", { summary: "Queue twice, race the claim, settle, sweep", body: z.object({}) }, async () => {
        const store = new OutboxStore(db);
        const approvalId = randomUUID();
        const rows = ["linkedin", "x"].map((platform) => ({ id: randomUUID(), approvalId, draftId: null, platform, title: "t", text: "hello", media: "[]", dueAt: now(), decidedBy: "frigg", createdAt: now() }));
        const added = [await store.enqueue(rows, now()), await store.enqueue(rows.map((r) => ({ ...r, id: randomUUID() })), now())];
        const [first, second] = rows;
        const claims = await race(() => store.claim(first!.id, now()));
        const settled = [await store.settle(first!.id, { status: "published", postId: "p1", postUrl: null, error: null }, now()), await store.settle(first!.id, { status: "failed", postId: null, postUrl: null, error: "late" }, now())];
        await store.claim(second!.id, now());
        const interrupted = await store.markInterrupted(now());
        return { ok: true, added, won: claims.won, settled, interrupted: interrupted.map((r) => [r.id === second!.id, r.status, r.attempts]), entries: (await store.list({ approvalId, limit: 10 })).map((e) => [e.platform, e.status, e.attempts, e.postId]) };
      });
      router.post("/api/pg-steps/outbox-owned", { summary: "A send claimed by another instance: left alone while it lives, settled once it is gone", body: z.object({ live: z.array(z.string()) }) }, async ({ body }) => {
        const other = new OutboxStore(db, () => "instance-b");
        const row = { id: randomUUID(), approvalId: randomUUID(), draftId: null, platform: "x", title: "t", text: "hello", media: "[]", dueAt: now(), decidedBy: "frigg", createdAt: now() };
        await other.enqueue([row], now());
        const claimed = await other.claim(row.id, now());
        const whileAlive = await new OutboxStore(db, () => "instance-a").markInterrupted(now(), [...body.live, "instance-b"]);
        const onceGone = await new OutboxStore(db, () => "instance-a").markInterrupted(now(), body.live);
        return { ok: true, claimed, whileAlive: whileAlive.length, onceGone: onceGone.map((r) => [r.id === row.id, r.status]) };
      });
    },
  }),
});

const dispatchPlugins = [activitiesPlugin, notificationsPlugin, approvalsPlugin, workPlugin, chatPlugin, dispatchPlugin, probePlugin];
const publishingPlugins = [activitiesPlugin, notificationsPlugin, approvalsPlugin, vaultPlugin, publishingPlugin, probePlugin];

test("outbox in team mode: a send another live instance is making is left alone; once that instance is gone it is settled unknown", async () => {
  const url = await database();
  await withTestHost({ plugins: publishingPlugins, env: { DATABASE_URL: url }, config: { vaultKey: "postgres test passphrase" } }, async (h) => {
    const answer = await h.json<{ claimed: boolean; whileAlive: number; onceGone: [boolean, string][] }>("/api/pg-steps/outbox-owned", { method: "POST", body: { live: ["instance-a"] } });
    assert.is(answer.status, 200, JSON.stringify(answer.body));
    assert.is(answer.body.claimed, true);
    assert.is(answer.body.whileAlive, 0, "a live instance's send was settled");
    assert.equal(answer.body.onceGone, [[true, "unknown"]]);
  });
});

test("dispatch: of 20 starts of one task one wins; of 20 review openings one; of 20 decisions one; an episode starts once; the sweep returns what it marked", async () => {
  const url = await database();
  await withTestHost({ plugins: dispatchPlugins, env: { DATABASE_URL: url } }, async (h) => {
    const post = <T>(path: string, body: object) => h.json<T & { won: number }>(`/api/pg-steps/${path}`, { method: "POST", body });
    // Dispatch's reads over HTTP (its writes start from a task, and the work plugin's create is still on `db.sql`).
    assert.equal((await h.json<ApiBody<"getDispatch">>("/api/dispatch")).body.dispatches, []);
    const started = await post("dispatch-start", { taskId: "task-1" });
    assert.is(started.status, 200, JSON.stringify(started.body));
    assert.is(started.body.won, 1);
    assert.is((await post("dispatch-start", { taskId: "task-1" })).body.won, 0, "the task already has a running dispatch");
    assert.is((await post("dispatch-start", { taskId: "task-2" })).body.won, 1, "another task is not blocked");
    const sweep = await post<{ interrupted: { taskId: string; status: string; error: string }[]; dispatches: { status: string }[] }>("dispatch-sweep", {});
    assert.equal(sweep.body.interrupted.map((d) => [d.taskId, d.status, d.error]).sort(), [["task-1", "interrupted", "stopped"], ["task-2", "interrupted", "stopped"]]);
    assert.equal(sweep.body.dispatches.map((d) => d.status), ["interrupted", "interrupted"]);
    assert.is((await post("dispatch-start", { taskId: "task-1" })).body.won, 1, "an ended dispatch blocks nothing");

    assert.is((await post("review-open", { taskId: "task-1" })).body.won, 1);
    assert.is((await post("review-open", { taskId: "task-1" })).body.won, 0, "one pending review per task");
    assert.equal((await post<{ pending: boolean }>("review-link", { taskId: "task-1", approvalId: "approval-1" })).body.pending, true);
    const resolved = await post<{ pending: boolean }>("review-resolve", { taskId: "task-1", approvalId: "approval-1" });
    assert.is(resolved.body.won, 1);
    assert.is(resolved.body.pending, false);
    assert.is((await post("review-open", { taskId: "task-1" })).body.won, 1, "a decided review blocks nothing");
    // Decided before it is linked (the approval is visible at once; its link follows): that decision is the review's.
    const early = await post<{ pending: boolean }>("review-resolve", { taskId: "task-1", approvalId: "approval-2" });
    assert.is(early.body.won, 1, "exactly one of the concurrent early decisions takes the unlinked review");
    assert.is(early.body.pending, false);

    const episode = await post<{ again: boolean }>("episode", { taskId: "task-1" });
    assert.is(episode.body.won, 1);
    assert.is(episode.body.again, true, "an ended episode starts again");
  });
});

test("publishing: a draft's edits hold the lock; of 20 takes for a publish request one wins; the outbox queues once, one of 20 claims sends, a settled entry stays", async () => {
  const url = await database();
  await withTestHost({ plugins: publishingPlugins, env: { DATABASE_URL: url }, config: { vaultKey: "postgres test passphrase" } }, async (h) => {
    const post = <T>(path: string) => h.json<T>(`/api/pg-steps/${path}`, { method: "POST", body: {} });
    // The draft flow over HTTP: create, edit, a refused move (409 with the catalogue's code), list, delete.
    const created = await h.json<ApiBody<"postContentDrafts">>("/api/content/drafts", { method: "POST", body: { title: "Hello", text: "First post" } });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const id = created.body.draft.id;
    const patch = (body: object) => h.json<ApiBody<"patchContentDraftsById">>(`/api/content/drafts/${id}`, { method: "PATCH", body });
    const moved = await patch({ title: "Hello there", status: "review" });
    assert.is(moved.status, 200, JSON.stringify(moved.body));
    assert.equal([moved.body.draft.title, moved.body.draft.status], ["Hello there", "review"]);
    const refused = await patch({ status: "approved" });
    assert.is(refused.status, 409, JSON.stringify(refused.body));
    assert.is(refused.body.error?.code, "CONTENT_DRAFT_INVALID_TRANSITION");
    const listed = await h.json<ApiBody<"getContentDrafts">>("/api/content/drafts?status=review");
    assert.equal(listed.body.drafts.map((d) => d.id), [id]);
    assert.is((await h.json(`/api/content/drafts/${id}`, { method: "DELETE", session: true })).status, 200);
    assert.is((await h.json(`/api/content/drafts/${id}`)).status, 404);

    const draft = await post<{ id: string; edited: boolean; staleMove: boolean; draft: { title: string; status: string } }>("draft");
    assert.is(draft.status, 200, JSON.stringify(draft.body));
    assert.equal([draft.body.edited, draft.body.staleMove, draft.body.draft.title, draft.body.draft.status], [true, false, "Launch day", "review"]);

    const take = await h.json<{ won: number; locked: { edit: boolean; delete: boolean }; ended: boolean; draft: { status: string; approvalId: string | null } }>("/api/pg-steps/draft-take", { method: "POST", body: { draftId: draft.body.id } });
    assert.is(take.status, 200, JSON.stringify(take.body));
    assert.is(take.body.won, 1);
    assert.equal(take.body.locked, { edit: false, delete: false }, "a draft waiting on its approval is locked");
    assert.is(take.body.ended, true);
    assert.equal([take.body.draft.status, take.body.draft.approvalId], ["rejected", null]);

    const outbox = await post<{ added: number[]; won: number; settled: boolean[]; interrupted: unknown[]; entries: unknown[] }>("outbox");
    assert.is(outbox.status, 200, JSON.stringify(outbox.body));
    assert.equal(outbox.body.added, [2, 0], "executing the approval again queues nothing");
    assert.is(outbox.body.won, 1);
    assert.equal(outbox.body.settled, [true, false], "a settled entry never changes again");
    assert.equal(outbox.body.interrupted, [[true, "unknown", 1]]);
    // Both entries were queued in one millisecond: on PostgreSQL such ties list by id, not by
    // insertion (docs/team.md), so compared by platform.
    const entries = [...(outbox.body.entries as [string, ...unknown[]][])].sort((a, b) => a[0].localeCompare(b[0]));
    assert.equal(entries, [["linkedin", "published", 1, "p1"], ["x", "unknown", 1, null]]);
  });
});

t.run();
