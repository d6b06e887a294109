// Serialises Hardhat builds between test processes: the runner runs two suites at once, and two builds
// writing the same artifacts at the same time could leave one reading a half-written file.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
// Straight from the kit's file: the Solidity suite runs without the `source` condition, so `@muster/plugin/testing` would resolve to an unbuilt dist/.
import { scaled } from "../../../core/plugin-api/testing/time-scale.ts";

export const ROOT = new URL("../../..", import.meta.url).pathname;
export const HARDHAT_CLI = join(ROOT, "node_modules/hardhat/dist/src/cli.js");
const LOCK = join(ROOT, "cache", "muster-contracts-build.lock");
// Every bound stretches with the load (scaled): a cold compile alone takes minutes on a loaded machine.
const STALE_MS = scaled(5 * 60_000);

async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  mkdirSync(join(ROOT, "cache"), { recursive: true });
  const deadline = Date.now() + scaled(6 * 60_000);
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      } catch { /* released meanwhile */ }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${LOCK}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Runs the Hardhat CLI with `args` and resolves with its exit code and output. */
export function runHardhat(args: string[], opts: { echo?: boolean; timeoutMs?: number } = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HARDHAT_CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (opts.echo) process.stdout.write(chunk);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    // A cold compile (via IR, 10,000 optimizer runs) takes minutes on a loaded machine: the bound stretches with the load.
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? scaled(5 * 60_000));
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, output });
    });
  });
}

/** Compiles contracts (and Solidity tests unless `contractsOnly`) once at a time across processes. */
export async function buildContracts(contractsOnly = true): Promise<void> {
  await withLock(async () => {
    const { code, output } = await runHardhat(["build", "--quiet", ...(contractsOnly ? ["--no-tests"] : [])]);
    if (code !== 0) throw new Error(`hardhat build failed:\n${output}`);
  });
}
