// scripts/bench/commit-cost.ts (issue 26): the cost of a SQLite commit to the request making it
// keeps running as the work plugin's table changes, and refuses what it cannot measure.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";

const t = suite("bench: commit cost");
const repo = new URL("../..", import.meta.url).pathname;
const run = (...args: string[]) =>
  spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", "scripts/bench/commit-cost.ts", ...args], { cwd: repo, encoding: "utf8", timeout: 120_000 });

t("measures inserts one per transaction, grouped, and without the checkpoint", () => {
  const result = run("--inserts", "300", "--rounds", "1");
  assert.is(result.status, 0, result.stderr);
  for (const label of ["1 per transaction", "2 per transaction", "5 per transaction", "10 per transaction", "25 per transaction", "1 per transaction, no checkpoint"]) {
    const row = new RegExp(`^\\| ${label} \\| ([\\d.]+) \\| ([\\d.]+)x \\| ([\\d.]+) \\| ([\\d.]+) / ([\\d.]+) \\|$`, "m").exec(result.stdout);
    assert.ok(row, `no row for ${label} in:\n${result.stdout}`);
    // Each figure is a real measurement of inserts that happened.
    assert.ok(Number(row![1]) > 0 && Number(row![5]) > 0, row![0]);
  }
});

t("an unknown option or a count that is not a whole number above 0 is refused with the usage", () => {
  for (const args of [["--batches", "2"], ["--inserts", "0"], ["--rounds", "1.5"]]) {
    const result = run(...args);
    assert.is(result.status, 2, result.stdout);
    assert.match(result.stderr, /usage: commit-cost\.ts/);
  }
});

t.run();
