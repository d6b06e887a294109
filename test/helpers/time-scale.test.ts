// The shared time scale of test bounds: MUSTER_TEST_TIME_SCALE wins, and waitUntil's bound
// stretches with it (so a loaded machine gets longer, still event-driven, waits).
import { spawnSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";

const t = suite("test time scale");
const ROOT = new URL("../..", import.meta.url).pathname;

function evalWith(scale: string, code: string): string {
  const run = spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", "--input-type=module", "-e", code], {
    cwd: ROOT,
    env: { ...process.env, MUSTER_TEST_TIME_SCALE: scale },
    encoding: "utf8",
  });
  return run.stdout.trim() || run.stderr;
}

t("MUSTER_TEST_TIME_SCALE=3 triples the bounds; waitUntil's timeout message names the scaled bound", () => {
  const out = evalWith("3", `
    const { scaled, TIME_SCALE } = await import("./test/helpers/time-scale.ts");
    const { waitUntil } = await import("./test/helpers/wait.ts");
    const message = await waitUntil(() => false, { timeoutMs: 20, label: "never" }).catch((e) => e.message);
    console.log(JSON.stringify({ TIME_SCALE, bound: scaled(1000), message }));`);
  assert.equal(JSON.parse(out), { TIME_SCALE: 3, bound: 3000, message: "timed out after 60 ms waiting for never" });
});

t("an unusable value falls back to the load-based factor (at least 1)", () => {
  const out = evalWith("0.5", `const { TIME_SCALE } = await import("./test/helpers/time-scale.ts"); console.log(TIME_SCALE);`);
  assert.ok(Number(out) >= 1, out);
});

t.run();
