// What a bench records about where and what it measured: the machine and the commit.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, platform, release, totalmem } from "node:os";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

/** The commit being measured, "+" when Muster's code or the bench has local changes. */
export function commit(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "core", "plugins", "scripts/bench", "package.json"], { cwd: ROOT, encoding: "utf8" }).trim();
    return dirty ? `${head}+` : head;
  } catch {
    return "unknown";
  }
}

export function machine(): string {
  const model = /model name\s*:\s*(.+)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? "unknown CPU";
  return `${platform()} ${release()}, ${availableParallelism()} × ${model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}
