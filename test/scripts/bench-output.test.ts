// The benches leave tracked files alone unless asked (issue 10 item 6): a plain run writes
// bench-results/benchmarks.md (git-ignored), `--record` the committed docs/benchmarks.md.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchmarksFile, wroteTo } from "../../scripts/bench/output.ts";
import { removeHome } from "../helpers/start-test-host.ts";

const t = suite("bench output");
const repo = new URL("../..", import.meta.url).pathname;

t("a plain run writes a git-ignored copy of the docs page; --record writes the docs page", () => {
  const root = mkdtempSync(join(tmpdir(), "muster-bench-out-"));
  mkdirSync(join(root, "docs"));
  writeFileSync(join(root, "docs", "benchmarks.md"), "# Benchmarks\n\nreference\n");
  const plain = benchmarksFile(["node", "api.ts"], root);
  assert.is(plain, join(root, "bench-results", "benchmarks.md"));
  assert.is(readFileSync(plain, "utf8"), "# Benchmarks\n\nreference\n", "starts from the docs page");
  writeFileSync(plain, "new figures\n");
  assert.is(benchmarksFile(["node", "api.ts"], root), plain);
  assert.is(readFileSync(plain, "utf8"), "new figures\n", "later runs keep adding to the same copy");
  assert.match(wroteTo(plain, "the api section", root), /bench-results\/benchmarks\.md \(git-ignored; run with --record/);
  const recorded = benchmarksFile(["node", "api.ts", "--record"], root);
  assert.is(recorded, join(root, "docs", "benchmarks.md"));
  assert.match(wroteTo(recorded, "the api section", root), /docs\/benchmarks\.md \(reference figures: commit them\)/);
  removeHome(root);
});

t("bench-results/ and .muster/ are ignored by git", () => {
  const ignored = execFileSync("git", ["check-ignore", "bench-results/benchmarks.md", ".muster/deployments.json"], { cwd: repo, encoding: "utf8" });
  assert.is(ignored.trim().split("\n").length, 2);
});

t.run();
