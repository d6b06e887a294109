import { mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, withTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { openSse, type SseConnection } from "../../helpers/sse-client.ts";
import { sleep, waitUntil } from "../../helpers/wait.ts";
import { probePlugin } from "./probe-plugin.ts";
import { scaled } from "../../helpers/time-scale.ts";
import { inTeam } from "../../helpers/team-host.ts";
import type { ApiBody } from "@muster/plugin/testing";
import type { StreamStats } from "../../../plugins/stream/services/sse-hub.ts";

const t = suite<{ h: TestHost; open: SseConnection[] }>("stream: GET /api/sse");

// maxLagMs generous and scaled: the test's own "fast" reader shares this process and the
// machine's cores, and while it parses 10 MiB of frames on a loaded machine it lags too; a
// 300 ms allowance dropped it with the slow one (CI at load 10). The slow client never reads,
// so any finite allowance drops it; the tests below wait for that drop, not for a time.
const streamConfig = { pingIntervalMs: 150, maxClients: 8, replaySize: 5, maxBufferedBytes: 64 * 1024, maxLagMs: scaled(1_500), maxBufferedBytesHard: 64 * 1024 * 1024 };

t.before(async (ctx) => {
  ctx.h = await startTestHost({ extraPlugins: [probePlugin], config: { pluginConfig: { stream: streamConfig } } });
  ctx.open = [];
});
t.after.each(async (ctx) => {
  for (const c of ctx.open.splice(0)) c.close();
  // The hub forgets closed clients on their socket's close event.
  await waitUntil(async () => (await stats(ctx.h)).clients === 0, { intervalMs: 20, label: "closed clients forgotten" });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

async function sse(ctx: { h: TestHost; open: SseConnection[] }, headers?: Record<string, string>) {
  const c = await openSse(ctx.h.url, { headers });
  ctx.open.push(c);
  return c;
}
const publish = (h: TestHost, body: Record<string, unknown>) => h.json("/api/stream-probe/publish", { method: "POST", body });
// The stream probe's counters: the hub's own stats, through this suite's test route (outside the OpenAPI).
// The hub of the instance the test's streams are open on (h.url; in a team, instance A).
const stats = async (h: TestHost) => (await fetch(`${h.url}/api/stream-probe/stats`)).json() as Promise<StreamStats>;
/** Resolves once the hub has broadcast (and kept for replay) every event up to `seq`. */
const broadcastUpTo = (h: TestHost, seq: number) => waitUntil(async () => (await stats(h)).lastSeq >= seq, { label: `frame ${seq} broadcast` });
const probeFrames = (c: SseConnection) => c.frames.filter((f) => f.data?.type === "event" && f.data.name.startsWith("probe."));

t("headers, then `connected` first with an id line, then pings at the configured interval", async (ctx) => {
  const c = await sse(ctx);
  assert.is(c.status, 200);
  assert.match(String(c.headers["content-type"]), /^text\/event-stream/);
  assert.match(String(c.headers["cache-control"]), /no-store/, "frames carry workspace data: never cached");
  assert.is(c.headers["x-accel-buffering"], "no");
  const first = await c.next(() => true, 2_000, "first frame");
  assert.is(first.data.type, "connected");
  assert.type(first.data.timestamp, "number");
  assert.ok(Math.abs(first.data.timestamp - Date.now()) < 5_000);
  assert.match(first.id!, /^[0-9a-f]{8}-\d+$/);
  assert.is(first.event, undefined, "unnamed frames only");
  const started = Date.now();
  await c.next((f) => f.data.type === "ping", 1_000, "ping");
  await c.next((f) => f.data.type === "ping" && c.frames.filter((x) => x.data.type === "ping").length >= 2, 1_000, "second ping");
  assert.ok(Date.now() - started < scaled(1_000));
  const ping = c.frames.find((f) => f.data.type === "ping")!;
  assert.type(ping.data.timestamp, "number");
  assert.ok(ping.id, "pings carry an id line too");
});

t("public bus events arrive as {type:event, name, payload, timestamp}; non-public ones never do", async (ctx) => {
  const c = await sse(ctx);
  await c.next((f) => f.data.type === "connected");
  await publish(ctx.h, { name: "probe.secret.changed", public: false, payload: "hidden" });
  await publish(ctx.h, { name: "probe.thing.happened", payload: { a: 1 } });
  const frame = await c.next((f) => f.data.type === "event" && f.data.name === "probe.thing.happened", 2_000, "public event");
  assert.equal(frame.data.payload, { n: 0, value: { a: 1 } });
  assert.type(frame.data.timestamp, "number");
  // No wait needed: the secret event was published first, so had it leaked it would have arrived before this one.
  assert.not.ok(c.frames.some((f) => f.data?.name === "probe.secret.changed"), "non-public event leaked");
  assert.not.ok(c.frames.some((f) => f.raw.includes("hidden")));
});

t("a payload full of newlines and SSE fields cannot forge a frame (catalogue G65)", async (ctx) => {
  const c = await sse(ctx);
  await c.next((f) => f.data.type === "connected");
  const evil = 'title\n\nevent: approval\ndata: {"forged":true}\r\n\r\nid: 999\rdata: x\n';
  await publish(ctx.h, { name: "probe.title.changed", payload: evil });
  await publish(ctx.h, { name: "probe.after.sent", payload: "sentinel" });
  await c.next((f) => f.data?.name === "probe.after.sent", 2_000, "sentinel");
  const evilFrames = c.frames.filter((f) => f.data?.name === "probe.title.changed");
  assert.is(evilFrames.length, 1);
  assert.is(evilFrames[0]!.data.payload.value, evil, "payload round-trips exactly");
  for (const f of c.frames) {
    assert.is(f.event, undefined, "no event: field");
    assert.not.ok(f.data?.forged, "no forged data frame");
    const lines = f.raw.split("\n");
    assert.is(lines.length, 2, `one id line + one data line: ${JSON.stringify(f.raw)}`);
    assert.match(lines[0]!, /^id: [0-9a-f]{8}-\d+$/);
    assert.ok(lines[1]!.startsWith("data: {"));
    assert.not.ok(f.raw.includes("\r"));
  }
});

t("Last-Event-ID replays the missed frames, in order, with their original ids; the ring is bounded", async (ctx) => {
  const a = await sse(ctx);
  await a.next((f) => f.data.type === "connected");
  await publish(ctx.h, { name: "probe.replay.seen", count: 2 });
  const seen = await a.next((f) => f.data?.name === "probe.replay.seen" && f.data.payload.n === 1, 2_000, "second seen");
  a.close();
  await publish(ctx.h, { name: "probe.replay.missed", count: 3 });
  await broadcastUpTo(ctx.h, Number(seen.id!.split("-")[1]) + 3);

  const b = await sse(ctx, { "Last-Event-ID": seen.id! });
  await b.next((f) => f.data?.name === "probe.replay.missed" && f.data.payload.n === 2, 2_000, "replayed");
  assert.is(b.frames[0]!.data.type, "connected", "connected comes first");
  const replayed = b.frames.slice(1).filter((f) => f.data.type === "event");
  assert.equal(replayed.map((f) => f.data.payload.n), [0, 1, 2]);
  assert.ok(replayed.every((f) => f.data.name === "probe.replay.missed"));
  const seqs = replayed.map((f) => Number(f.id!.split("-")[1]));
  assert.equal(seqs, [seqs[0]!, seqs[0]! + 1, seqs[0]! + 2]);
  assert.is(seqs[0], Number(seen.id!.split("-")[1]) + 1);

  // replaySize is 5: after 10 more frames, an old id gets only the newest 5.
  b.close();
  await publish(ctx.h, { name: "probe.replay.flood", count: 10 });
  await broadcastUpTo(ctx.h, seqs[2]! + 10);
  const c = await sse(ctx, { "Last-Event-ID": seen.id! });
  await c.next((f) => f.data?.name === "probe.replay.flood" && f.data.payload.n === 9, 2_000, "last flood frame");
  const flood = c.frames.filter((f) => f.data.type === "event");
  assert.equal(flood.map((f) => f.data.payload.n), [5, 6, 7, 8, 9]);
});

t("Last-Event-ID: up to date, from another process, or garbage", async (ctx) => {
  const a = await sse(ctx);
  const connected = await a.next((f) => f.data.type === "connected");
  const bootId = connected.id!.split("-")[0]!;
  await publish(ctx.h, { name: "probe.latest.sent" });
  const latest = await a.next((f) => f.data?.name === "probe.latest.sent");

  const upToDate = await sse(ctx, { "Last-Event-ID": latest.id! });
  const otherBoot = await sse(ctx, { "Last-Event-ID": `${bootId === "00000000" ? "11111111" : "00000000"}-3` });
  const garbage = await sse(ctx, { "Last-Event-ID": "../../etc/passwd" });
  const future = await sse(ctx, { "Last-Event-ID": `${bootId}-999999999` });
  // A replay is written at connection time, before any ping: once a ping arrives, any replay has too.
  await Promise.all([upToDate, otherBoot, garbage, future].map((c) => c.next((f) => f.data.type === "ping", 2_000, "a ping after any replay")));
  for (const c of [upToDate, garbage, future]) {
    assert.is(c.frames[0]!.data.type, "connected");
    assert.is(c.frames.filter((f) => f.data.type === "event").length, 0);
  }
  // A restart lost the old ring: a client from before it gets everything this process kept.
  assert.is(otherBoot.frames[0]!.data.type, "connected");
  assert.is(otherBoot.frames.filter((f) => f.data.type === "event").length, 5);
});

t("connection cap: beyond maxClients 503 STREAM_TOO_MANY_CLIENTS; closing releases the slots", async (ctx) => {
  const attempts = await Promise.all(Array.from({ length: 30 }, () => openSse(ctx.h.url)));
  ctx.open.push(...attempts);
  const accepted = attempts.filter((c) => c.status === 200);
  const refused = attempts.filter((c) => c.status !== 200);
  assert.is(accepted.length, streamConfig.maxClients);
  assert.is(refused.length, 30 - streamConfig.maxClients);
  for (const r of refused) {
    assert.is(r.status, 503);
    const body = JSON.parse(r.body);
    assert.is(body.ok, false);
    assert.is(body.error.code, "STREAM_TOO_MANY_CLIENTS");
  }
  assert.is((await stats(ctx.h)).clients, streamConfig.maxClients);
  for (const c of accepted) c.close();
  await waitUntil(async () => (await stats(ctx.h)).clients === 0, { intervalMs: 20, label: "closed connections released" });
  assert.is((await stats(ctx.h)).clients, 0, "closed connections are released");
  const again = await Promise.all(Array.from({ length: streamConfig.maxClients }, () => openSse(ctx.h.url)));
  ctx.open.push(...again);
  assert.ok(again.every((c) => c.status === 200), "slots are reusable");
});

t("many connect/close cycles: no listener growth, no MaxListenersExceededWarning", async (ctx) => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on("warning", onWarning);
  try {
    for (let round = 0; round < 10; round++) {
      const batch = await Promise.all(Array.from({ length: streamConfig.maxClients }, () => openSse(ctx.h.url)));
      for (const c of batch) c.close();
      await waitUntil(async () => (await stats(ctx.h)).clients === 0, { label: "the batch released" });
    }
    assert.is((await stats(ctx.h)).clients, 0);
    // Clients that hang up right after sending the request must not keep a slot either.
    const url = new URL(ctx.h.url);
    for (let i = 0; i < 40; i++) {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`GET /api/sse HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
        socket.destroy();
      });
      socket.on("error", () => {});
    }
    await sleep(200); // a sleep on purpose: lets the server take in the 40 aborted requests (none leaves anything to wait on)
    await waitUntil(async () => (await stats(ctx.h)).clients === 0, { intervalMs: 20, label: "aborted requests released" });
    assert.is((await stats(ctx.h)).clients, 0, "aborted requests hold no slot");
    await publish(ctx.h, { name: "probe.after.cycles" });
    await sleep(50); // a sleep on purpose: proves no warning is emitted within the window
    assert.not.ok(warnings.includes("MaxListenersExceededWarning"));
  } finally {
    process.off("warning", onWarning);
  }
});

t("a client that never reads is disconnected and never delays another client", async (ctx) => {
  const before = (await stats(ctx.h)).droppedSlowClients;
  const fast = await sse(ctx);
  await fast.next((f) => f.data.type === "connected");
  // The slow client: a raw socket that sends the request and then never reads a byte.
  const url = new URL(ctx.h.url);
  const slow = connect(Number(url.port), url.hostname);
  slow.on("error", () => {});
  await new Promise<void>((r) => slow.once("connect", () => r()));
  slow.pause();
  slow.write(`GET /api/sse HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`);
  await waitUntil(async () => (await stats(ctx.h)).clients >= 2, { label: "the slow client registered" });
  assert.is((await stats(ctx.h)).clients, 2);

  // 40 frames of 256 KiB: about 10 MiB, far beyond kernel buffers and the 64 KiB allowance.
  const sent = Date.now();
  await publish(ctx.h, { name: "probe.big.sent", count: 40, padBytes: 256 * 1024 });
  // Two instances (MUSTER_TEST_TEAM=1): the 10 MiB also cross the database to the other instance's clients.
  const bound = inTeam ? 9_000 : 3_000;
  await fast.next((f) => f.data?.name === "probe.big.sent" && f.data.payload.n === 39, bound + 2_000, "all 40 big frames");
  const elapsed = Date.now() - sent;
  assert.is(probeFrames(fast).filter((f) => f.data.name === "probe.big.sent").length, 40, "the fast client got every frame");
  assert.ok(elapsed < scaled(bound), `fast client delayed ${elapsed} ms (bound ${scaled(bound)} ms)`);
  // The slow client stays behind; the next sends (pings every 150 ms) find it past maxLagMs.
  await waitUntil(async () => (await stats(ctx.h)).droppedSlowClients > before, { timeoutMs: 5_000 + streamConfig.maxLagMs, intervalMs: 20, label: "the slow client dropped" });
  const after = await stats(ctx.h);
  assert.ok(after.droppedSlowClients > before, "the slow client was dropped");
  assert.is(after.clients, 1, "only the fast client remains");
  await publish(ctx.h, { name: "probe.small.sent" });
  await fast.next((f) => f.data?.name === "probe.small.sent", 2_000, "frame after the drop");
  slow.destroy();
});

t("the route refuses other methods with 405 and works beside the JSON API", async (ctx) => {
  const post = await ctx.h.json("/api/sse", { method: "POST", body: {} });
  assert.is(post.status, 405);
  assert.is(post.body.error?.code, "METHOD_NOT_ALLOWED");
  const c = await sse(ctx);
  await c.next((f) => f.data.type === "connected");
  const health = await ctx.h.json<ApiBody<"getHealth">>("/api/health");
  assert.is(health.status, 200);
  const head = await fetch(`${ctx.h.url}/api/sse`, { method: "HEAD", signal: AbortSignal.timeout(2_000) });
  assert.is(head.status, 200, "HEAD answers headers without opening a stream");
  assert.match(String(head.headers.get("content-type")), /^text\/event-stream/);
  assert.is((await stats(ctx.h)).clients, 1);
});

t("?lastEventId= works like the header (EventSource polyfills)", async (ctx) => {
  const a = await sse(ctx);
  await a.next((f) => f.data.type === "connected");
  await publish(ctx.h, { name: "probe.query.seen" });
  const seen = await a.next((f) => f.data?.name === "probe.query.seen");
  a.close();
  await publish(ctx.h, { name: "probe.query.missed" });
  await broadcastUpTo(ctx.h, Number(seen.id!.split("-")[1]) + 1);
  const b = await openSse(ctx.h.url, { path: `/api/sse?lastEventId=${encodeURIComponent(seen.id!)}` });
  ctx.open.push(b);
  const missed = await b.next((f) => f.data?.name === "probe.query.missed", 2_000, "replayed via query");
  assert.is(b.frames.filter((f) => f.data.type === "event").length, 1);
  assert.is(Number(missed.id!.split("-")[1]), Number(seen.id!.split("-")[1]) + 1);
});

t.run();

const s = suite("stream: shutdown");

s("stopping the host ends every stream promptly and releases the port", async () => {
  await withTestHost({ extraPlugins: [probePlugin] }, async (h) => {
    const clients = await Promise.all(Array.from({ length: 5 }, () => openSse(h.url)));
    for (const c of clients) await c.next((f) => f.data.type === "connected");
    // One client stopped reading with a large backlog: it must not hold the shutdown up.
    const url = new URL(h.url);
    const stuck = connect(Number(url.port), url.hostname);
    stuck.on("error", () => {});
    await new Promise<void>((r) => stuck.once("connect", () => r()));
    stuck.pause();
    stuck.write(`GET /api/sse HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    await waitUntil(async () => (await stats(h)).clients >= 6, { label: "the stuck client registered" });
    await h.json("/api/stream-probe/publish", { method: "POST", body: { name: "probe.backlog.sent", count: 20, padBytes: 512 * 1024 } });
    // The backlog is written to every client as each frame is broadcast.
    await broadcastUpTo(h, 20);
    const started = Date.now();
    await h.stop();
    const took = Date.now() - started;
    await Promise.race([Promise.all(clients.map((c) => c.ended)), sleep(scaled(2_000))]);
    assert.ok(clients.every((c) => c.isEnded()), "every stream ended");
    // Without the fix a stuck client held the stop for its whole drain timeout; a loaded machine only stretches the rest.
    // Two instances (MUSTER_TEST_TEAM=1) stop one after the other (team-host.ts): the bound is each one's.
    const bound = scaled(1_500) * (inTeam ? 2 : 1);
    assert.ok(took < bound, `stop took ${took} ms (bound ${bound} ms)`);
    stuck.destroy();
    const refused = await fetch(`${h.url}/api/sse`).then(() => false, () => true);
    assert.ok(refused, "nothing listens any more");
  });
});

s("a client that stops reading is dropped after maxLagMs even when nothing more is sent (no ping, no frame)", async () => {
  // Pings every 10 minutes: before the per-client lag timer, only the next send noticed the lag.
  const config = { pingIntervalMs: 600_000, maxLagMs: scaled(200), maxBufferedBytes: 64 * 1024, maxBufferedBytesHard: 256 * 1024 * 1024 };
  await withTestHost({ extraPlugins: [probePlugin], config: { pluginConfig: { stream: config } } }, async (h) => {
    const url = new URL(h.url);
    const slow = connect(Number(url.port), url.hostname);
    try {
      slow.on("error", () => {});
      await new Promise<void>((r) => slow.once("connect", () => r()));
      slow.pause(); // never reads a byte
      slow.write(`GET /api/sse HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
      await waitUntil(async () => (await stats(h)).clients >= 1, { label: "the slow client registered" });
      assert.is((await stats(h)).clients, 1);
      // One burst of 40 x 256 KiB, far beyond the kernel buffers; nothing is published afterwards.
      await h.json("/api/stream-probe/publish", { method: "POST", body: { name: "probe.burst.sent", count: 40, padBytes: 256 * 1024 } });
      // Bounded wait far below the 10-minute ping: the lag timer must have dropped it by then.
      await waitUntil(async () => (await stats(h)).droppedSlowClients > 0, { timeoutMs: 5_000, intervalMs: 20, label: "dropped by its lag timer" });
      const after = await stats(h);
      assert.is(after.droppedSlowClients, 1, "dropped by its lag timer");
      assert.is(after.clients, 0);
      // The server reset the connection: a read now finds it closed.
      await new Promise<void>((resolve, reject) => {
        if (slow.destroyed) return resolve();
        const timer = setTimeout(() => reject(new Error(`the socket is still open ${scaled(5_000)} ms after the drop`)), scaled(5_000));
        slow.once("close", () => {
          clearTimeout(timer);
          resolve();
        });
        slow.resume();
      });
    } finally {
      slow.destroy();
    }
  });
});

s("invalid stream configuration stops the host from starting, naming the field", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-home-"));
  try {
    let message = "";
    await startTestHost({ home, config: { pluginConfig: { stream: { pingIntervalMs: 0, extra: true } } } }).then(
      (h) => h.stop(),
      (error: Error) => (message = error.message),
    );
    assert.match(message, /stream/);
    assert.match(message, /pingIntervalMs/);
  } finally {
    removeHome(home);
  }
});

s.run();
