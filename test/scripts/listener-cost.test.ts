// scripts/bench/listener-cost.ts (issue 26): the same-process cost of a request through the
// server's listener keeps running as the host changes, and refuses what it cannot measure.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";

const t = suite("bench: listener cost");
const repo = new URL("../..", import.meta.url).pathname;
const run = (...args: string[]) =>
  spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", "scripts/bench/listener-cost.ts", ...args], {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, LOG_LEVEL: "warn" },
    timeout: 120_000,
  });

t("measures this checkout's health and list answers against the floor, per request", () => {
  const result = run("--batches", "2", "--targets", "health,list", "self=.");
  assert.is(result.status, 0, result.stderr);
  for (const target of ["health", "list"]) {
    const self = new RegExp(`^${target}\\s+self\\s+([\\d.]+) µs per request$`, "m").exec(result.stdout);
    const floor = new RegExp(`^${target}\\s+floor\\s+([\\d.]+) µs per request, ([\\d.]+)x of self`, "m").exec(result.stdout);
    assert.ok(self && floor, result.stdout);
    // Muster's answer does the floor's work and more: both figures are real measurements.
    assert.ok(Number(self![1]) > 0 && Number(floor![1]) > 0, result.stdout);
  }
});

t("a call without a checkout or with an unknown target is refused with the usage", () => {
  for (const args of [[], ["--targets", "nothing", "self=."]]) {
    const result = run(...args);
    assert.is(result.status, 2);
    assert.match(result.stderr, /usage: listener-cost\.ts/);
  }
});

t.run();
