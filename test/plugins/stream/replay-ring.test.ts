import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ReplayRing } from "../../../plugins/stream/services/replay-ring.ts";
import { encodeFrame, parseLastEventId } from "../../../plugins/stream/services/frames.ts";

const t = suite("stream: replay ring and frames");
const frame = (seq: number, size = 10) => ({ seq, bytes: Buffer.alloc(size) });

t("keeps the newest frames by count and by bytes; after(n) is the suffix", () => {
  const ring = new ReplayRing(3, 1_000);
  for (let i = 1; i <= 5; i++) ring.push(frame(i));
  assert.is(ring.size, 3);
  assert.equal(ring.after(0).map((f) => f.seq), [3, 4, 5]);
  assert.equal(ring.after(3).map((f) => f.seq), [4, 5]);
  assert.equal(ring.after(5), []);
  const bytes = new ReplayRing(100, 25);
  for (let i = 1; i <= 5; i++) bytes.push(frame(i));
  assert.equal(bytes.after(0).map((f) => f.seq), [4, 5]);
  bytes.push(frame(6, 26));
  assert.equal(bytes.after(0).map((f) => f.seq), [4, 5], "a frame larger than the budget is not kept");
  assert.equal(new ReplayRing(0, 100).after(0), []);
});

t("stays correct across compaction", () => {
  const ring = new ReplayRing(10, 1_000_000);
  for (let i = 1; i <= 5_000; i++) ring.push(frame(i, 1));
  assert.is(ring.size, 10);
  assert.equal(ring.after(4_995).map((f) => f.seq), [4_996, 4_997, 4_998, 4_999, 5_000]);
  assert.is(ring.after(1).length, 10);
});

t("frames are one id line and one data line whatever the payload", () => {
  const text = encodeFrame("0a0b0c0d-7", { type: "event", name: "x.y.z", payload: "a\n\nevent: e\r\ndata: {}\r\u2028", timestamp: 1 }).toString("utf8");
  assert.ok(text.endsWith("\n\n"));
  const lines = text.slice(0, -2).split("\n");
  assert.is(lines.length, 2);
  assert.not.ok(text.slice(0, -2).includes("\r"));
  assert.equal(JSON.parse(lines[1]!.slice("data: ".length)).payload, "a\n\nevent: e\r\ndata: {}\r\u2028");
  assert.throws(() => encodeFrame("0a0b0c0d-8", { type: "event", name: "x.y.z", payload: 1n, timestamp: 1 }));
});

t("Last-Event-ID parsing accepts only our ids", () => {
  assert.equal(parseLastEventId("0a0b0c0d-42"), { bootId: "0a0b0c0d", seq: 42 });
  for (const bad of [undefined, "", "42", "0a0b0c0d-", "0a0b0c0d--1", "zzzzzzzz-1", "0a0b0c0d-1e9", "0a0b0c0d-1234567890123456", "../x"]) {
    assert.is(parseLastEventId(bad), null, String(bad));
  }
});

t.run();
