// The memory release after a full build: it really collects (a dropped object is gone
// afterwards), it leaves the young generation at its working size (not the 1 MB a
// memory-reducing GC shrinks it to, which made the server run a minor GC every 2 MB under
// load), and getting V8's `gc` for it leaves no `gc` in other contexts (plugins' vm
// sandboxes) nor in the main one. It runs only after a build that grew the young generation
// (a memory-reducing GC leaves V8's optimised code of the request path slower for good).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { setImmediate as nextTurn } from "node:timers/promises";
import { runInNewContext } from "node:vm";
import { getHeapSpaceStatistics } from "node:v8";
import { buildKeptMemory, releaseMemory, RELEASE_ABOVE_BYTES, RSS_GROWTH_TO_RELEASE_BYTES, YOUNG_GENERATION_BYTES } from "../../../plugins/search/services/release-memory.ts";

const t = suite("search: memory release after a build");

const youngCapacity = () => getHeapSpaceStatistics().find((space) => space.space_name === "new_space")!.space_size;

/** A large build's worth of surviving allocation: the young generation grows to its largest. */
function allocateAsABuildDoes(): void {
  let kept: number[][] = [];
  for (let i = 0; i < 200_000; i++) {
    kept.push(new Array<number>(64).fill(i));
    if (kept.length > 50_000) kept = kept.slice(25_000);
  }
  kept = [];
}

// First: a process that built nothing large holds nothing worth a memory-reducing GC, whose
// cost outlasts it (release-memory.ts), so the index skips the release after a small build.
t("a small process has nothing to release; a large build's allocation has", () => {
  assert.ok(youngCapacity() <= RELEASE_ABOVE_BYTES, `young generation already ${youngCapacity()} bytes`);
  assert.is(buildKeptMemory(), false);
  allocateAsABuildDoes();
  assert.ok(youngCapacity() > RELEASE_ABOVE_BYTES, `young generation only ${youngCapacity()} bytes after the allocation`);
  assert.is(buildKeptMemory(), true);
  const grown = youngCapacity();
  releaseMemory();
  assert.ok(youngCapacity() < grown, `the release gave nothing back (${grown} bytes before, ${youngCapacity()} after)`);
});

t("a build that grew the process by more than RSS_GROWTH_TO_RELEASE_BYTES left memory to release, whatever the young generation", () => {
  releaseMemory(); // The young generation back at its working size.
  assert.ok(youngCapacity() <= RELEASE_ABOVE_BYTES);
  assert.is(buildKeptMemory(), false, "grown by nothing");
  assert.is(buildKeptMemory(RSS_GROWTH_TO_RELEASE_BYTES), false, "grown by the line itself");
  assert.is(buildKeptMemory(RSS_GROWTH_TO_RELEASE_BYTES + 1_048_576), true, "grown by more than the line");
});

t("collects what is no longer referenced", async () => {
  let garbage: { payload: Uint8Array } | undefined = { payload: new Uint8Array(8 * 1024 * 1024) };
  const ref = new WeakRef(garbage);
  garbage = undefined;
  // A WeakRef keeps its target until the current job ends.
  await nextTurn();
  const durationMs = releaseMemory();
  assert.type(durationMs, "number");
  assert.ok(durationMs! >= 0);
  assert.is(ref.deref(), undefined);
});

t("leaves the young generation at its working size, and a load's garbage then takes few minor GCs", () => {
  allocateAsABuildDoes();
  releaseMemory();
  const capacity = youngCapacity();
  assert.ok(capacity >= YOUNG_GENERATION_BYTES, `young generation ${capacity} bytes after the release, under ${YOUNG_GENERATION_BYTES}`);
  assert.ok(capacity <= 4 * YOUNG_GENERATION_BYTES, `young generation ${capacity} bytes: the release gave back little`);
});

t("exposes gc to no other context, and still collects once the flag is off again", async () => {
  const before = typeof (globalThis as { gc?: unknown }).gc;
  releaseMemory();
  assert.is(runInNewContext("typeof gc"), "undefined");
  assert.is(typeof (globalThis as { gc?: unknown }).gc, before);
  let garbage: object | undefined = { payload: new Uint8Array(1024) };
  const ref = new WeakRef(garbage);
  garbage = undefined;
  await nextTurn();
  assert.type(releaseMemory(), "number");
  assert.is(ref.deref(), undefined);
});

t.run();
