// Team mode's live stream (issue 25): several instances on one PostgreSQL database stream the
// same frames, in one order, with ids that mean the same on each, so a client that
// reconnects to another instance with `Last-Event-ID` misses nothing. Real hosts on a real,
// throwaway cluster; skipped with the reason where PostgreSQL's binaries are missing.
import * as assert from "uvu/assert";
import { streamPlugin } from "../../plugins/stream/index.ts";
import { openSse, type SseConnection, type SseFrame } from "../helpers/sse-client.ts";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";
import { waitUntil } from "../helpers/wait.ts";
import { answeredOnlyOnceStored } from "../helpers/table-held.ts";
import { probePlugin } from "../plugins/stream/probe-plugin.ts";
import { activitiesPlugin } from "../../plugins/activities/index.ts";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const { t, test, database } = postgresSuite("live stream across instances on PostgreSQL");

const probeEvents = (c: SseConnection) => c.frames.filter((f) => f.data?.type === "event" && String(f.data.name).startsWith("probe."));
const publish = (h: TestHost, name: string, count = 1) => h.json("/api/stream-probe/publish", { method: "POST", body: { name, count } });
const names = (frames: SseFrame[]) => frames.map((f) => `${f.data.name}#${f.data.payload.n}`);
const idsOf = (frames: SseFrame[]) => frames.map((f) => f.id);

async function instances(count: number, url: string): Promise<TestHost[]> {
  const hosts: TestHost[] = [];
  // One after the other: their migrations would take turns anyway.
  for (let i = 0; i < count; i++) hosts.push(await startTestHost({ plugins: [streamPlugin, probePlugin], env: { DATABASE_URL: url } }));
  return hosts;
}

async function stopAll(hosts: TestHost[], clients: SseConnection[]): Promise<void> {
  for (const c of clients) c.close();
  for (const h of hosts) {
    await h.stop();
    removeHome(h.home);
  }
}

test("events published on either instance reach the clients of both, in one order, with the same ids", async () => {
  const hosts = await instances(2, await database());
  const [a, b] = hosts as [TestHost, TestHost];
  const clients = [await openSse(a.url), await openSse(b.url)];
  try {
    // Both publish at once: the database orders them.
    await Promise.all([publish(a, "probe.from.a", 10), publish(b, "probe.from.b", 10)]);
    for (const c of clients) await waitUntil(() => probeEvents(c).length >= 20, { label: "20 events on each client" });
    const [onA, onB] = clients.map(probeEvents) as [SseFrame[], SseFrame[]];
    assert.is(onA.length, 20);
    assert.equal(names(onA), names(onB), "one order on both instances");
    assert.equal(idsOf(onA), idsOf(onB), "the same ids on both instances");
    // Each instance's own events keep their publish order.
    for (const from of ["a", "b"]) assert.equal(names(onA).filter((n) => n.startsWith(`probe.from.${from}#`)), Array.from({ length: 10 }, (_, i) => `probe.from.${from}#${i}`));
    // Ids increase: a client's Last-Event-ID is a position in the deployment's one sequence.
    const seqs = onA.map((f) => Number(f.id!.split("-")[1]));
    assert.ok(seqs.every((s, i) => i === 0 || s > seqs[i - 1]!), seqs.join(","));
  } finally {
    await stopAll(hosts, clients);
  }
});

test("a request that published answers once its frames are numbered: what a client publishes next, through the other instance, streams after them", async () => {
  const url = await database();
  const hosts = await instances(2, url);
  const [a, b] = hosts as [TestHost, TestHost];
  const clients = [await openSse(a.url)];
  try {
    await clients[0]!.next((f) => f.data?.type === "connected");
    const first = await answeredOnlyOnceStored(url, "stream_frames", () => publish(b, "probe.first", 3));
    assert.is(first.status, 200);
    assert.is((await publish(a, "probe.second")).status, 200);
    await waitUntil(() => probeEvents(clients[0]!).length >= 4, { label: "4 events" });
    assert.equal(names(probeEvents(clients[0]!)), ["probe.first#0", "probe.first#1", "probe.first#2", "probe.second#0"]);
  } finally {
    await stopAll(hosts, clients);
  }
});

test("a client that reconnects to the other instance with Last-Event-ID gets exactly what it missed; an instance started later replays too", async () => {
  const url = await database();
  const hosts = await instances(2, url);
  const [a, b] = hosts as [TestHost, TestHost];
  const clients: SseConnection[] = [];
  try {
    const first = await openSse(a.url);
    clients.push(first);
    await publish(a, "probe.before", 5);
    await waitUntil(() => probeEvents(first).length >= 5, { label: "5 events on A" });
    const lastSeen = probeEvents(first).at(-1)!.id!;
    first.close();
    // A live client of B, open before what the first one misses (a publish answers once its
    // frames are stored: a client opened after it would get them only by replay).
    const watcher = await openSse(b.url);
    clients.push(watcher);
    await watcher.next((f) => f.data?.type === "connected");
    // Missed while disconnected: published on both instances.
    await publish(b, "probe.missed.b", 3);
    await publish(a, "probe.missed.a", 3);
    await waitUntil(() => probeEvents(watcher).length >= 6, { label: "the missed events on B's live client" });
    const resumed = await openSse(b.url, { headers: { "last-event-id": lastSeen } });
    clients.push(resumed);
    await waitUntil(() => probeEvents(resumed).length >= 6, { label: "replay on B" });
    // Exactly the six, as a live client of B saw them (the database's order: the two
    // instances' writes may interleave), with the same ids.
    assert.equal(idsOf(probeEvents(resumed)), idsOf(probeEvents(watcher)));
    assert.equal(names(probeEvents(resumed)).sort(), [...[0, 1, 2].map((n) => `probe.missed.a#${n}`), ...[0, 1, 2].map((n) => `probe.missed.b#${n}`)]);

    // A third instance, started after all of it, keeps the newest frames for replay as well.
    const [c] = await instances(1, url);
    hosts.push(c!);
    const late = await openSse(c!.url, { headers: { "last-event-id": lastSeen } });
    clients.push(late);
    await waitUntil(() => probeEvents(late).length >= 6, { label: "replay on the late instance" });
    assert.equal(idsOf(probeEvents(late)), idsOf(probeEvents(resumed)));
    // And it streams what the first two publish from now on.
    await publish(a, "probe.after", 1);
    await waitUntil(() => probeEvents(late).some((f) => f.data.name === "probe.after"), { label: "live on the late instance" });
  } finally {
    await stopAll(hosts, clients);
  }
});

test("private events stay off the stream; the stream survives its listening connection being cut (it reads what it missed)", async () => {
  const url = await database();
  const hosts = await instances(2, url);
  const [a, b] = hosts as [TestHost, TestHost];
  const client = await openSse(b.url);
  try {
    await a.json("/api/stream-probe/publish", { method: "POST", body: { name: "probe.private", public: false } });
    // Cut every LISTEN connection: the relays reconnect and read from their last id.
    const cut = await a.json("/api/stream-probe/publish", { method: "POST", body: { name: "probe.marker" } });
    assert.is(cut.status, 200);
    await waitUntil(() => probeEvents(client).some((f) => f.data.name === "probe.marker"), { label: "marker" });
    const { default: pg } = (await import(PG)) as { default: { Client: new (c: object) => { connect(): Promise<void>; query(s: string): Promise<{ rowCount: number }>; end(): Promise<void> } } };
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const ended = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query ILIKE 'LISTEN %' AND pid <> pg_backend_pid()");
      assert.ok(ended.rowCount >= 2, `listening connections ended: ${ended.rowCount}`);
    } finally {
      await admin.end();
    }
    await publish(a, "probe.after.cut", 3);
    await waitUntil(() => probeEvents(client).filter((f) => f.data.name === "probe.after.cut").length === 3, { label: "events after the cut" });
    assert.not.ok(probeEvents(client).some((f) => f.data.name === "probe.private"), "a private event was streamed");
  } finally {
    await stopAll(hosts, [client]);
  }
});

test("a shared workspace's change is streamed and logged once, by the primary instance, though every instance watches it", async () => {
  const url = await database();
  const workspaceDir = mkdtempSync(join(tmpdir(), "muster-team-ws-"));
  const hosts: TestHost[] = [];
  const clients: SseConnection[] = [];
  try {
    for (let i = 0; i < 2; i++) hosts.push(await startTestHost({ plugins: [streamPlugin, activitiesPlugin], env: { DATABASE_URL: url }, config: { workspaceDir, scaffoldWorkspace: false } }));
    for (const h of hosts) await waitUntil(async () => (await h.json<{ watcher: string }>("/api/health")).body.watcher === "ready", { label: "the watcher's scan" });
    const client = await openSse(hosts[1]!.url);
    clients.push(client);
    mkdirSync(join(workspaceDir, "memory"), { recursive: true });
    writeFileSync(join(workspaceDir, "memory", "shared-note.md"), "# Seen once\n");
    const changes = () => client.frames.filter((f) => f.data?.type === "file_change" && f.data.event.path === "memory/shared-note.md");
    await waitUntil(() => changes().length >= 1, { label: "the change on the stream" });
    const logged = async () => (await hosts[0]!.json<{ action: string; target: string }[]>("/api/activities?limit=50")).body.filter((a) => a.target === "memory/shared-note.md");
    await waitUntil(async () => (await logged()).length >= 1, { label: "the change logged" });
    // Both instances saw it (their watchers run); give a duplicate the time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.is(changes().length, 1, "streamed once");
    assert.equal((await logged()).map((a) => a.action), ["file_created"], "logged once");
  } finally {
    await stopAll(hosts, clients);
    rmSync(workspaceDir, { recursive: true, force: true });
  }
});

const PG: string = "pg";
t.run();
