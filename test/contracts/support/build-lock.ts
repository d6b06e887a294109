// Serialises Hardhat builds between test processes: the runner runs two suites at once, and two builds
// writing the same artifacts at the same time could leave one reading a half-written file.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
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

// What the last build here was made from, kept inside artifacts/ so that removing the artifacts
// (or `hardhat clean`) removes it too.
const STAMP = join(ROOT, "artifacts", "muster-build-inputs.json");

/** Every input of a build: the Solidity sources (tests included), the config, and the lock (solc's and Hardhat's versions). */
function inputsDigest(): string {
  const hash = createHash("sha256");
  const sources: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".sol")) sources.push(full);
    }
  };
  walk(join(ROOT, "contracts"));
  for (const file of [...sources.sort(), join(ROOT, "hardhat.config.ts"), join(ROOT, "package-lock.json")]) {
    hash.update(`${relative(ROOT, file)}\0`).update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

function readStamp(): { digest: string; tests: boolean } | undefined {
  try {
    return JSON.parse(readFileSync(STAMP, "utf8")) as { digest: string; tests: boolean };
  } catch {
    return undefined;
  }
}

/**
 * Compiles contracts (and Solidity tests unless `contractsOnly`) once at a time across processes.
 * About a dozen suites ask; after the first, Hardhat finds nothing to compile, but starting its
 * CLI to find that out costs 2-4 s a suite. When every input is what the last successful build
 * here was made from (and that build covered the tests if asked for), the spawn is skipped.
 */
export async function buildContracts(contractsOnly = true): Promise<void> {
  await withLock(async () => {
    const digest = inputsDigest();
    const last = readStamp();
    if (last?.digest === digest && (contractsOnly || last.tests) && existsSync(join(ROOT, "artifacts", "contracts"))) return;
    rmSync(STAMP, { force: true });
    const { code, output } = await runHardhat(["build", "--quiet", ...(contractsOnly ? ["--no-tests"] : [])]);
    if (code !== 0) throw new Error(`hardhat build failed:\n${output}`);
    writeFileSync(STAMP, JSON.stringify({ digest, tests: !contractsOnly || (last?.digest === digest && last.tests) }));
  });
}
