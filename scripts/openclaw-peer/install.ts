// Installs the pinned OpenClaw gateway into a cache outside the repository (it is about 650 MB,
// so never a dependency of Muster): the package.json and lock file beside this script are
// copied there and `npm ci --ignore-scripts` runs against them, so every machine gets the
// same tree. A marker holding the lock file's hash makes a second call a no-op.
// Usage: node --import tsx scripts/openclaw-peer/install.ts   (prints the install directory)
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

const HERE = import.meta.dirname;
const LOCK = join(HERE, "package-lock.json");
const MANIFEST = join(HERE, "package.json");
const MARKER = ".muster-installed";
const INSTALL_TIMEOUT_MS = 10 * 60_000;

/** The pinned version, read from the committed manifest (one place to bump it). */
export const OPENCLAW_VERSION: string = JSON.parse(readFileSync(MANIFEST, "utf8")).dependencies.openclaw;

export interface OpenClawInstall {
  dir: string;
  /** The CLI entry to run with Node 24: `node <entry> gateway run`. */
  entry: string;
  /** False when the cache already held this exact lock file. */
  installed: boolean;
}

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
  return join(base, "muster", `openclaw-${OPENCLAW_VERSION}`);
}

const lockHash = () => createHash("sha256").update(readFileSync(LOCK)).digest("hex");

/** OpenClaw's engines field asks for Node >= 24.16; the project's pinned Node 24 qualifies. */
export function assertNodeForOpenClaw(version = process.versions.node): void {
  const [major, minor] = version.split(".").map(Number) as [number, number];
  if (major < 24 || (major === 24 && minor < 16)) {
    throw new Error(`OpenClaw ${OPENCLAW_VERSION} needs Node >= 24.16; this is ${version}. Run through npm (npm run test:openclaw) so the project's pinned Node 24 is used.`);
  }
}

export async function ensureOpenClaw(log: (line: string) => void = (l) => console.error(l)): Promise<OpenClawInstall> {
  assertNodeForOpenClaw();
  const dir = cacheDir();
  const entry = join(dir, "node_modules", "openclaw", "openclaw.mjs");
  const marker = join(dir, MARKER);
  const want = lockHash();
  if (existsSync(marker) && readFileSync(marker, "utf8").trim() === want && existsSync(entry)) return { dir, entry, installed: false };

  log(`[openclaw-peer] installing openclaw@${OPENCLAW_VERSION} into ${dir} (about 650 MB, once per lock file)`);
  // A half-finished earlier install must not be trusted: start from an empty tree.
  rmSync(join(dir, "node_modules"), { recursive: true, force: true });
  rmSync(marker, { force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(MANIFEST, join(dir, "package.json"));
  copyFileSync(LOCK, join(dir, "package-lock.json"));
  const started = Date.now();
  await npmCi(dir);
  if (!existsSync(entry)) throw new Error(`npm ci finished but ${entry} is missing`);
  writeFileSync(marker, `${want}\n`);
  log(`[openclaw-peer] installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return { dir, entry, installed: true };
}

/** `npm ci` with this Node first on PATH; no install scripts (none are needed, reference §3.1). */
function npmCi(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: dir,
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`, npm_config_update_notifier: "false" },
      stdio: ["ignore", "inherit", "inherit"],
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), INSTALL_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`npm ci for openclaw failed (${signal ?? `exit ${code}`})`));
    });
  });
}

if (process.argv[1] === import.meta.filename) {
  const result = await ensureOpenClaw();
  console.log(result.dir);
}
