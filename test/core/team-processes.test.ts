// Issue 25's two-instance suite with real processes: two `muster` servers (child processes,
// as `npm start` runs them), each with its own MUSTER_HOME, one shared workspace, one real
// throwaway PostgreSQL, one fake gateway both connect to, the blog fake as the outbox's
// platform. What the in-process suites (test/core/postgres-*) show per plugin is shown here
// end to end: a write on one reaches a stream client of the other; 20 decisions of one
// approval over both give one winner; a cron fires once per fire time; `kill -9` of one under
// load loses no acknowledged write, its cron and outbox work moves to the survivor within
// 10 s, and its stream client resumes on the survivor with Last-Event-ID missing nothing.
// Every child is SIGKILLed and the cluster stopped at the end; skipped, with the reason,
// where PostgreSQL's binaries are missing.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decideApproval, type ApiBody } from "@muster/plugin/testing";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { startMusterChild, type MusterChild } from "../helpers/muster-child.ts";
import { postgresUnavailable, startPostgres, type PostgresCluster } from "../helpers/postgres-cluster.ts";
import { openSse, type SseConnection, type SseFrame } from "../helpers/sse-client.ts";
import { BLOG_TOKEN, startBlogFake, type BlogFake } from "../helpers/platform-fakes/blog.ts";
import { sleep, waitUntil } from "../helpers/wait.ts";
import { cleanupAll } from "../../scripts/bench/processes.ts";

const NAME = "two muster processes on one PostgreSQL";
const t = suite(NAME);
const unavailable = postgresUnavailable();
if (unavailable) console.log(`${NAME}: skipped, ${unavailable}`);
const test = unavailable ? t.skip : t;

const TOKEN = "fake-token-team-processes-0123456789";
const MINUTE = 60_000;
const TICK = "team-cron-tick";
const HELD = "team-cron-held";
/** The bound for a dead instance's cron and outbox work to move (scaled by waitUntil). */
const FAILOVER_MS = 10_000;

interface Deployment {
  a: MusterChild;
  b: MusterChild;
  gw: FakeGateway;
  blog: BlogFake;
  /** crons.clockOffsetMs of both instances: the crons clock is `Date.now() + offset`. */
  offset: number;
  /** The `* * * * *` job created on A once B runs. */
  jobId: string;
}

let cluster: PostgresCluster | undefined;
let gateway: FakeGateway | undefined;
let blogFake: BlogFake | undefined;
const children: MusterChild[] = [];
const dirs: string[] = [];
let deployment: Promise<Deployment> | undefined;
// Whatever ends this process, no child outlives it (SIGKILL, synchronous).
process.on("exit", cleanupAll);

/** The crons clock of both instances reads a whole minute `leadMs` from now: the job's first fire falls inside the suite. */
const offsetFor = (leadMs: number) => {
  const at = Date.now() + leadMs;
  return Math.ceil(at / MINUTE) * MINUTE - at;
};

async function start(): Promise<Deployment> {
  cluster = await startPostgres();
  const url = await cluster.createDatabase();
  const gw = (gateway = await FakeGateway.start({ token: TOKEN, agents: [{ id: "main" }], tickIntervalMs: 5_000 }));
  // A held turn waits until its instance dies (the fake sees the socket close) or the fake stops.
  gw.onChat(async (_agent, message, _key, ctx) => {
    if (message === HELD) await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
    return "done";
  });
  const blog = (blogFake = await startBlogFake());
  const workspace = mkdtempSync(join(tmpdir(), "muster-team-ws-"));
  dirs.push(workspace);
  // Both children start well inside the lead (a start took over 20 s at a load of 12).
  const offset = offsetFor(30_000);
  const startOne = async () => {
    const home = mkdtempSync(join(tmpdir(), "muster-team-home-"));
    dirs.push(home);
    const child = await startMusterChild({
      home,
      workspace,
      gatewayUrl: gw.url,
      gatewayToken: TOKEN,
      env: { DATABASE_URL: url, VAULT_KEY: "team processes passphrase" },
      pluginConfig: {
        crons: { clockOffsetMs: offset },
        publishing: { requestTimeoutMs: 60_000 },
        // The load below writes a few hundred frames; the survivor keeps them all for replay.
        stream: { replaySize: 20_000, replayMaxBytes: 64 * 1024 * 1024 },
      },
    });
    children.push(child);
    return child;
  };
  // One after the other: the first applies the migrations.
  const a = await startOne();
  const b = await startOne();
  const secret = await a.json("/api/vault", { method: "POST", session: true, body: { name: "BLOG_API_KEY", value: JSON.stringify({ endpoint: `${blog.url}/hook`, token: BLOG_TOKEN }) } });
  assert.is(secret.status, 201, JSON.stringify(secret.body));
  // Created on A once B has started (a request other than health waits for its plugins' start):
  // B learns of the job from the database, not from its own start.
  assert.is((await b.json("/api/crons")).status, 200);
  const created = await a.json<ApiBody<"postCrons">>("/api/crons", { method: "POST", body: { name: "Tick", agentId: "main", cron: "* * * * *", message: TICK } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  return { a, b, gw, blog, offset, jobId: created.body.job.id };
}

const team = () => (deployment ??= start());

t.after(async () => {
  for (const child of children) await child.kill();
  await gateway?.stop();
  await blogFake?.close();
  await cluster?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const events = (c: SseConnection, name: string) => c.frames.filter((f) => f.data?.type === "event" && f.data.name === name);
const seq = (f: SseFrame) => Number(f.id!.split("-")[1]);
const createTask = (h: MusterChild, title: string) => h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title } });
const runsOf = async (h: MusterChild, jobId: string) => (await h.json<ApiBody<"getCronsRuns">>(`/api/crons/runs?id=${jobId}&limit=500`)).body.runs;
const tickCalls = (gw: FakeGateway) => gw.requests("agent").filter((f) => f.params?.message === TICK);

test("a task created on one instance reaches a stream client of the other, and is listed by both", async () => {
  const { a, b } = await team();
  const client = await openSse(b.url);
  try {
    const created = await createTask(a, "Written on A");
    assert.is(created.status, 201, JSON.stringify(created.body));
    const frame = await client.next((f) => f.data?.name === "work.task.created" && f.data.payload.id === created.body.id, 10_000, "A's task on B's stream");
    assert.is(frame.data.payload.title, "Written on A");
    const listed = await b.json<ApiBody<"getTasks">>("/api/tasks");
    assert.ok(listed.body.some((task) => task.id === created.body.id), "B lists A's task");
  } finally {
    client.close();
  }
});

test("20 concurrent decisions of one approval, half on each instance: exactly one wins, the others 409 APPROVAL_ALREADY_RESOLVED", async () => {
  const { a, b } = await team();
  const requested = await a.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: { title: "Deploy", type: "deploy", requestedBy: "odin", context: "two instances" } });
  assert.is(requested.status, 201, JSON.stringify(requested.body));
  const id = requested.body.approval.id;
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => decideApproval(i % 2 ? b : a, id, i % 4 < 2 ? "approved" : "rejected")));
  const won = answers.filter((r) => r.status === 200);
  assert.is(won.length, 1, JSON.stringify(answers.map((r) => r.status)));
  for (const lost of answers.filter((r) => r.status !== 200)) {
    assert.is(lost.status, 409, JSON.stringify(lost.body));
    assert.is(lost.body.error?.code, "APPROVAL_ALREADY_RESOLVED");
  }
  // Both instances read the one decision.
  const decided = won[0]!.body.approval.status;
  for (const h of [a, b]) assert.is((await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${id}`)).body.approval.status, decided);
});

test("a cron job created on one instance fires once per fire time across both", async () => {
  const { a, b, gw, jobId, offset } = await team();
  const job = (await b.json<ApiBody<"getCrons">>("/api/crons")).body.jobs.find((j) => j.id === jobId)!;
  const firstFire = job.nextRun!;
  // Wait for the fire time (a minute at most, by the crons clock), then a sweep more (2 s) for a duplicate to show.
  const wait = Math.max(0, Date.parse(firstFire) - (Date.now() + offset));
  const [run] = await waitUntil(async () => {
    const runs = (await runsOf(a, jobId)).filter((r) => r.fireAt === firstFire && r.status !== "running");
    return runs.length ? runs : null;
  }, { timeoutMs: wait + 20_000, intervalMs: 200, label: `the fire of ${firstFire}` });
  assert.is(run!.status, "ok", JSON.stringify(run));
  await sleep(3_000);
  const runs = await runsOf(b, jobId);
  assert.equal(runs.map((r) => r.fireAt), [firstFire], "one run for the fire time");
  assert.is(tickCalls(gw).length, 1, "the gateway got the turn once");
});

test("kill -9 of one instance under load: no acknowledged write lost, its cron and outbox work moves to the survivor within 10 s, its stream client resumes there missing nothing", async () => {
  const { a, b, gw, blog, jobId, offset } = await team();
  // --- A's work in flight: a cron run held by the gateway, a send held by the platform, a send due later.
  const held = (await a.json<ApiBody<"postCrons">>("/api/crons", { method: "POST", body: { name: "Held", agentId: "main", cron: "0 9 * * *", message: HELD } })).body.job;
  assert.is((await a.json("/api/crons", { method: "PATCH", body: { id: held.id, action: "run" } })).status, 202);
  await waitUntil(() => gw.requests("agent").some((f) => f.params?.message === HELD), { label: "the held run reached the gateway" });

  blog.script("POST /hook", "hang");
  const hanging = await publishThrough(a, "Hangs on A", null);
  await waitUntil(() => blog.calls("POST /hook").length === 1, { label: "A's send reached the platform" });
  // Due a few seconds after the kill: A armed its timer; only A would have sent it.
  const dueAt = new Date(Date.now() + 8_000).toISOString();
  const scheduled = await publishThrough(a, "Due later", dueAt);

  // --- Streams: a client on A (to resume on B) and a watcher on B connected throughout.
  const onA = await openSse(a.url);
  const watcher = await openSse(b.url);
  const clients = [onA, watcher];
  try {
    // --- Load: 4 writers, each alternating A and B, for 3 s; A is killed halfway.
    const acknowledged: string[] = [];
    let refused = 0;
    const until = Date.now() + 3_000;
    const writer = async (w: number) => {
      for (let i = 0; Date.now() < until; i++) {
        const target = (i + w) % 2 ? b : a;
        try {
          const res = await createTask(target, `load ${w}-${i}`);
          if (res.status === 201) acknowledged.push(res.body.id);
          else refused++;
        } catch {
          refused++; // A is gone: the request was not acknowledged
        }
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(writer));
    await sleep(1_500);
    await a.kill();
    const killedAt = Date.now();
    await load;
    assert.ok(acknowledged.length > 20, `acknowledged writes: ${acknowledged.length} (refused ${refused})`);

    // No acknowledged write is lost: the survivor lists every one.
    const listed = new Set((await b.json<ApiBody<"getTasks">>("/api/tasks")).body.map((task) => task.id));
    const lost = acknowledged.filter((id) => !listed.has(id));
    assert.equal(lost, [], `${lost.length} of ${acknowledged.length} acknowledged tasks missing`);

    // The cron run A held is settled by B (interrupted, never re-sent) within 10 s.
    await waitUntil(async () => (await runsOf(b, held.id))[0]?.status === "interrupted", { timeoutMs: FAILOVER_MS, intervalMs: 100, label: "A's cron run settled by B" });
    assert.is(gw.requests("agent").filter((f) => f.params?.message === HELD).length, 1, "the held run was sent again");
    // A's send in flight is settled unknown by B (never re-sent) within 10 s.
    await waitUntil(async () => (await outboxEntry(b, hanging)).status === "unknown", { timeoutMs: FAILOVER_MS, intervalMs: 100, label: "A's send settled by B" });
    // The send A had armed is sent by B, once, within 10 s of its due time.
    await waitUntil(async () => (await outboxEntry(b, scheduled)).status === "published", {
      timeoutMs: Math.max(0, Date.parse(dueAt) - Date.now()) + FAILOVER_MS,
      intervalMs: 100,
      label: "the send A had armed, sent by B",
    }).catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await outboxEntry(b, scheduled))}\n${b.output()}`);
    });
    const posts = blog.calls("POST /hook").map((r) => r.headers["idempotency-key"]);
    assert.equal(posts.filter((k) => k === scheduled).length, 1, "the scheduled send was posted once");
    assert.equal(posts.filter((k) => k === hanging).length, 1, "the interrupted send was posted again");
    console.log(`  ${acknowledged.length} writes acknowledged under load, ${refused} refused; failover measured from the kill: ${Date.now() - killedAt} ms for the checks above`);

    // The job A created keeps firing on B: its next fire time after the kill runs once.
    const after = (await b.json<ApiBody<"getCrons">>("/api/crons")).body.jobs.find((j) => j.id === jobId)!.nextRun!;
    await waitUntil(async () => (await runsOf(b, jobId)).some((r) => r.fireAt === after && r.status === "ok"), {
      timeoutMs: Math.max(0, Date.parse(after) - (Date.now() + offset)) + FAILOVER_MS,
      intervalMs: 200,
      label: `the fire of ${after} on B`,
    });
    const fires = (await runsOf(b, jobId)).map((r) => r.fireAt);
    assert.equal(fires.filter((f) => f === after).length, 1);
    assert.equal(new Set(fires).size, fires.length, `a fire time ran twice: ${fires.join(", ")}`);

    // The client of A resumes on B with the last id it got: exactly the frames B streamed after it.
    await onA.ended;
    const lastSeen = onA.frames.filter((f) => f.id).at(-1)!;
    const resumed = await openSse(b.url, { headers: { "last-event-id": lastSeen.id! } });
    clients.push(resumed);
    const expected = () => watcher.frames.filter((f) => f.id && f.data?.type === "event" && seq(f) > seq(lastSeen));
    await waitUntil(() => resumed.frames.filter((f) => f.id && f.data?.type === "event").length >= expected().length, { timeoutMs: 10_000, label: "the replay on B" });
    assert.equal(resumed.frames.filter((f) => f.id && f.data?.type === "event").map((f) => f.id), expected().map((f) => f.id));
    // Every task B created after the client's last frame is in what it resumed with.
    const resumedTasks = new Set(events(resumed, "work.task.created").map((f) => f.data.payload.id));
    const seenBefore = new Set(events(onA, "work.task.created").map((f) => f.data.payload.id));
    const streamed = events(watcher, "work.task.created").map((f) => f.data.payload.id);
    assert.equal(streamed.filter((id) => !seenBefore.has(id) && !resumedTasks.has(id)), [], "tasks streamed by B that the resumed client never got");
  } finally {
    for (const c of clients) c.close();
  }
});

/** A blog post queued through `h`: a draft, a publish request, approved there; the outbox entry's id. */
async function publishThrough(h: MusterChild, text: string, scheduledAt: string | null): Promise<string> {
  const draft = await h.json<ApiBody<"postContentDrafts">>("/api/content/drafts", { method: "POST", body: { text, platforms: ["blog"] } });
  assert.is(draft.status, 201, JSON.stringify(draft.body));
  const asked = await h.json<ApiBody<"postContentPublish">>("/api/content/publish", { method: "POST", body: { draftId: draft.body.draft.id, ...(scheduledAt ? { scheduledAt } : {}) } });
  assert.is(asked.status, 202, JSON.stringify(asked.body));
  const decided = await decideApproval(h, asked.body.approval.id, "approved");
  assert.is(decided.status, 200, JSON.stringify(decided.body));
  const [entry] = (await h.json<ApiBody<"getContentOutbox">>(`/api/content/outbox?approvalId=${asked.body.approval.id}`)).body.entries;
  return entry!.id;
}

async function outboxEntry(h: MusterChild, id: string) {
  const entries = (await h.json<ApiBody<"getContentOutbox">>("/api/content/outbox?limit=200")).body.entries;
  return entries.find((e) => e.id === id)!;
}

t.run();
