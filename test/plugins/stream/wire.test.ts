// The stream's bytes on the wire (issue 26: the hub frames each event once as an HTTP chunk and
// writes that buffer to every socket itself). Read through a net socket with a strict decoder:
// the chunked framing must be valid for any HTTP/1.1 client or proxy, each frame must arrive
// as one whole chunk, and the end of the stream must be the last chunk.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { probePlugin } from "./probe-plugin.ts";
import { rawConnect, type RawResponse } from "./raw-http.ts";
import type { StreamStats } from "../../../plugins/stream/services/sse-hub.ts";

const t = suite("stream: wire format");

const FRAME = /^id: ([0-9a-f]{8}-\d+)\ndata: ([^\n]*)\n\n$/;

/** Each chunk is exactly one SSE frame; returns them parsed, in order. */
function framesOf(chunks: Buffer[]): { id: string; data: any }[] {
  return chunks.map((chunk) => {
    const match = FRAME.exec(chunk.toString("utf8"));
    assert.ok(match, `a chunk that is not one whole frame: ${JSON.stringify(chunk.toString("utf8").slice(0, 200))}`);
    return { id: match![1]!, data: JSON.parse(match![2]!) };
  });
}

// The hub of the instance the test's streams are open on (h.url; in a team, instance A).
const stats = async (h: TestHost) => (await fetch(`${h.url}/api/stream-probe/stats`)).json() as Promise<StreamStats>;
const publish = (h: TestHost, body: Record<string, unknown>) => h.json("/api/stream-probe/publish", { method: "POST", body });
const request = (h: TestHost, extra = "", version = "1.1") => `GET /api/sse HTTP/${version}\r\nHost: ${new URL(h.url).host}\r\nAccept: text/event-stream\r\n${extra}\r\n`;
const stream = (responses: RawResponse[]) => responses.find((r) => r.headers.get("content-type")?.startsWith("text/event-stream"));
/** The frames of the stream response so far (each chunk checked to be one whole frame). */
const streamFrames = (responses: RawResponse[]) => framesOf(stream(responses)?.chunks ?? []);
const probeValues = (responses: RawResponse[], name: string) => streamFrames(responses).filter((f) => f.data.name === name).map((f) => f.data.payload.n);

t("HTTP/1.1: chunked, each frame one whole chunk (multi-byte text, 300 KiB frames, a replay); shutdown sends the last chunk", async () => {
  await withTestHost({ extraPlugins: [probePlugin], config: { pluginConfig: { stream: { pingIntervalMs: 600_000 } } } }, async (h) => {
    const a = await rawConnect(h.url, request(h));
    const [head] = await a.until((r) => streamFrames(r).length >= 1, "the connected frame");
    assert.is(head!.status, 200);
    assert.is(head!.framing, "chunked");
    assert.not.ok(head!.headers.has("content-length"));
    assert.match(head!.headers.get("content-type")!, /^text\/event-stream/);
    assert.match(head!.headers.get("cache-control")!, /no-store/);
    const connected = streamFrames([head!])[0]!;
    assert.is(connected.data.type, "connected");

    // A chunk's size counts bytes, not characters; a large frame spans many socket reads.
    await publish(h, { name: "probe.text.sent", payload: "ünïcødé ✓ 🚀 — ".repeat(50) });
    await publish(h, { name: "probe.big.sent", count: 3, padBytes: 300 * 1024 });
    await publish(h, { name: "probe.after.sent", count: 2 });
    const got = await a.until((r) => probeValues(r, "probe.after.sent").length === 2, "every frame");
    assert.equal(probeValues(got, "probe.text.sent"), [0]);
    assert.is(streamFrames(got).find((f) => f.data.name === "probe.text.sent")!.data.payload.value, "ünïcødé ✓ 🚀 — ".repeat(50));
    assert.equal(probeValues(got, "probe.big.sent"), [0, 1, 2]);
    assert.ok(streamFrames(got).filter((f) => f.data.name === "probe.big.sent").every((f) => f.data.payload.pad.length === 300 * 1024));

    // A reconnect with Last-Event-ID: `connected` and the replay, each its own chunk, in order.
    const textId = streamFrames(got).find((f) => f.data.name === "probe.text.sent")!.id;
    const b = await rawConnect(h.url, request(h, `Last-Event-ID: ${textId}\r\n`));
    const replayed = await b.until((r) => probeValues(r, "probe.after.sent").length === 2, "the replay");
    const frames = streamFrames(replayed);
    assert.is(frames[0]!.data.type, "connected");
    assert.equal(frames.slice(1).map((f) => `${f.data.name}:${f.data.payload.n}`), ["probe.big.sent:0", "probe.big.sent:1", "probe.big.sent:2", "probe.after.sent:0", "probe.after.sent:1"]);
    await waitUntil(async () => (await stats(h)).clients === 2, { label: "both streams registered" });

    await h.stop();
    for (const c of [a, b]) {
      const ended = await c.until((r, closed) => stream(r)!.complete && closed, "the last chunk and the close");
      assert.is(ended.length, 1, "nothing after the stream's response");
      assert.ok(c.received().subarray(-5).equals(Buffer.from("0\r\n\r\n")), "the body ends with the last chunk, nothing after it");
    }
  });
});

t("HTTP/1.0: no chunked framing (the body ends with the connection); frames arrive as they are", async () => {
  await withTestHost({ extraPlugins: [probePlugin], config: { pluginConfig: { stream: { pingIntervalMs: 600_000 } } } }, async (h) => {
    const c = await rawConnect(h.url, request(h, "", "1.0"));
    const body = (r: RawResponse[]) => (r[0]?.chunks[0] ?? Buffer.alloc(0)).toString("utf8");
    const [head] = await c.until((r) => body(r).includes('"type":"connected"'), "the connected frame");
    assert.is(head!.status, 200);
    assert.is(head!.framing, "close");
    await publish(h, { name: "probe.old.sent", count: 2 });
    const got = await c.until((r) => body(r).includes('"n":1'), "both frames");
    const frames = body(got).split(/(?<=\n\n)/);
    assert.is(frames.length, 3);
    const parsed = framesOf(frames.map((f) => Buffer.from(f)));
    assert.equal(parsed.map((f) => f.data.type), ["connected", "event", "event"]);
    await h.stop();
    const ended = await c.until((_r, closed) => closed, "the close");
    assert.is(body(ended), frames.join(""), "nothing but frames, not even a last chunk");
  });
});

/** GET /api/health, then the stream, on one connection: one after the other or both in one write (pipelined). */
async function afterAnotherResponse(h: TestHost, pipelined: boolean) {
  const host = new URL(h.url).host;
  const health = `GET /api/health HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
  const c = await rawConnect(h.url, pipelined ? health + request(h) : health);
  if (!pipelined) {
    await c.until((r) => r[0]?.complete === true, "the health answer");
    c.socket.write(request(h));
  }
  const got = await c.until((r) => streamFrames(r).length >= 1, "the health answer, then the stream");
  assert.is(got.length, 2);
  assert.is(got[0]!.status, 200);
  assert.ok(got[0]!.complete);
  assert.type(JSON.parse(Buffer.concat(got[0]!.chunks).toString("utf8")), "object");
  assert.is(got[1]!.framing, "chunked");
  assert.is(streamFrames(got)[0]!.data.type, "connected");
  await publish(h, { name: "probe.reused.sent" });
  await c.until((r) => probeValues(r, "probe.reused.sent").length === 1, "a frame on the stream");
  c.socket.destroy();
  await waitUntil(async () => (await stats(h)).clients === 0, { label: "the stream released" });
}

t("keep-alive: a stream opened on a connection after another response follows it whole", async () => {
  await withTestHost({ extraPlugins: [probePlugin], config: { pluginConfig: { stream: { pingIntervalMs: 600_000 } } } }, (h) => afterAnotherResponse(h, false));
});

t("pipelining: a stream requested in the same write as another request opens once that response has ended", async () => {
  await withTestHost({ extraPlugins: [probePlugin], config: { pluginConfig: { stream: { pingIntervalMs: 600_000 } } } }, (h) => afterAnotherResponse(h, true));
});

t("pipelining: the waiting stream holds its slot and gets what was broadcast while it waited", async () => {
  await withTestHost({ extraPlugins: [probePlugin], config: { pluginConfig: { stream: { pingIntervalMs: 600_000, maxClients: 1 } } } }, async (h) => {
    const host = new URL(h.url).host;
    const c = await rawConnect(h.url, `GET /api/stream-probe/hold HTTP/1.1\r\nHost: ${host}\r\n\r\n${request(h)}`);
    await waitUntil(async () => (await stats(h)).clients === 1, { label: "the pipelined stream counted" });
    // Its slot is taken: the cap (1) refuses another stream meanwhile.
    const refused = await rawConnect(h.url, request(h));
    const [answer] = await refused.until((r) => r[0]?.complete === true, "the 503");
    assert.is(answer!.status, 503);
    assert.is(JSON.parse(Buffer.concat(answer!.chunks).toString("utf8")).error.code, "STREAM_TOO_MANY_CLIENTS");
    refused.socket.destroy();
    await publish(h, { name: "probe.while.waiting", count: 2 });
    // Released on the instance that holds it (h.url: instance A in a team).
    const released = await fetch(`${h.url}/api/stream-probe/release`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    assert.equal(((await released.json()) as { held: boolean }).held, true);
    const got = await c.until((r) => probeValues(r, "probe.while.waiting").length === 2, "the frames broadcast while it waited");
    assert.is(got[0]!.status, 200, "the held answer first");
    assert.equal(streamFrames(got).map((f) => f.data.type), ["connected", "event", "event"]);
    assert.equal(probeValues(got, "probe.while.waiting"), [0, 1]);
    c.socket.destroy();
    await waitUntil(async () => (await stats(h)).clients === 0, { label: "the stream released" });
  });
});

t.run();
