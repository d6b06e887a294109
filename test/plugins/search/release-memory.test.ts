// The memory release after a full build: it really collects (a dropped object is gone
// afterwards), and getting V8's `gc` for it leaves no `gc` in other contexts (plugins' vm
// sandboxes) nor in the main one.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { setImmediate as nextTurn } from "node:timers/promises";
import { runInNewContext } from "node:vm";
import { releaseMemory } from "../../../plugins/search/services/release-memory.ts";

const t = suite("search: memory release after a build");

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
