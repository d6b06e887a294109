// One server per MUSTER_HOME. Two servers on one home would migrate the same database,
// run plugins' onStart twice and overwrite each other's session token, so the host takes
// this lock before it touches anything in the home and a second start stops at once.
//
// The lock is a file, `$MUSTER_HOME/muster.lock`, holding the owner's pid, url, port and
// start time (`muster status` reads it). It is created with link(2), which fails if the
// file exists, from a fully written temporary file: a reader never sees half a lock. A
// lock whose pid is no longer alive (a server killed with SIGKILL, a crash) is stale and
// is taken over.
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startErrors } from "./start-errors.ts";

export interface InstanceInfo {
  pid: number;
  /** Base URL once the server listens, null while it starts. */
  url: string | null;
  port: number | null;
  startedAt: string;
  version: string;
  /** Tells this lock apart from an earlier one with the same (reused) pid. */
  nonce: string;
}

export interface InstanceLock {
  readonly path: string;
  readonly info: InstanceInfo;
  /** Records the listening address for `muster status` and for a refused second start. */
  update(change: Pick<InstanceInfo, "url" | "port">): void;
  /** Removes the lock if it is still ours; safe to call more than once. */
  release(): void;
}

export const lockPath = (home: string) => join(home, "muster.lock");

/** The url a client on this machine reaches the locked server at: a wildcard bind is reached through loopback. */
export function reachableUrl(url: string): string {
  return url.replace("//0.0.0.0:", "//127.0.0.1:").replace("//[::]:", "//[::1]:");
}

/** The lock's contents, or undefined if there is none (or it is unreadable). */
export function readInstanceLock(home: string): InstanceInfo | undefined {
  return readLockFile(lockPath(home));
}

/** The running instance on this home, or undefined if none (a stale lock counts as none). */
export function runningInstance(home: string): InstanceInfo | undefined {
  const info = readInstanceLock(home);
  return info && isAlive(info.pid) ? info : undefined;
}

/** Takes the lock on `home` or throws INSTANCE_RUNNING naming the holder. */
export function acquireInstanceLock(home: string, version: string): InstanceLock {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = lockPath(home);
  const info: InstanceInfo = { pid: process.pid, url: null, port: null, startedAt: new Date().toISOString(), version, nonce: randomBytes(8).toString("hex") };
  // A few rounds: each failed link is either a live holder (thrown) or a stale lock moved aside.
  for (let round = 0; round < 5; round++) {
    if (tryLink(path, info)) return heldLock(path, info);
    const holder = readLockFile(path);
    if (holder && isAlive(holder.pid)) throw instanceRunning(home, holder);
    takeOverStale(path, holder);
  }
  throw startErrors.INSTANCE_RUNNING({ home, holder: `other Muster processes keep starting and taking the lock ${path}` });
}

function heldLock(path: string, info: InstanceInfo): InstanceLock {
  let held = true;
  const lock: InstanceLock = {
    path,
    info,
    update(change) {
      if (!held) return;
      Object.assign(info, change);
      writeAtomically(path, info);
    },
    release() {
      if (!held) return;
      held = false;
      heldLocks.delete(lock);
      if (readLockFile(path)?.nonce === info.nonce) rmSync(path, { force: true });
    },
  };
  heldLocks.add(lock);
  ensureExitHook();
  return lock;
}

/** A process that exits without stopping its host (process.exit after an error) leaves no lock. */
const heldLocks = new Set<InstanceLock>();
let exitHooked = false;
function ensureExitHook() {
  if (exitHooked) return;
  exitHooked = true;
  process.on("exit", () => {
    for (const lock of [...heldLocks]) lock.release();
  });
}

function tryLink(path: string, info: InstanceInfo): boolean {
  const temporary = `${path}.${process.pid}.${info.nonce}.tmp`;
  writeFileSync(temporary, JSON.stringify(info), { mode: 0o600 });
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * Moves a stale lock aside. Two starts may judge the same lock stale at once; the one that
 * moves it second would move the first one's fresh lock, so it checks what it moved and
 * puts a live lock back.
 */
function takeOverStale(path: string, stale: InstanceInfo | undefined) {
  const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // someone else moved it; try again
    throw error;
  }
  const moved = readLockFile(aside);
  if (moved && moved.nonce !== stale?.nonce && isAlive(moved.pid)) {
    try {
      linkSync(aside, path);
    } catch {
      // Another start already holds the lock again; the next round reads it.
    }
  }
  rmSync(aside, { force: true });
}

function writeAtomically(path: string, info: InstanceInfo) {
  const temporary = `${path}.${process.pid}.${info.nonce}.tmp`;
  writeFileSync(temporary, JSON.stringify(info), { mode: 0o600 });
  renameSync(temporary, path);
}

function readLockFile(path: string): InstanceInfo | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<InstanceInfo>;
    if (typeof parsed.pid !== "number" || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return undefined;
    return { url: null, port: null, startedAt: "", version: "", nonce: "", ...parsed } as InstanceInfo;
  } catch {
    return undefined;
  }
}

/** kill(pid, 0) tests existence; EPERM means it exists but belongs to another user. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function instanceRunning(home: string, holder: InstanceInfo) {
  const where = holder.url ? `at ${holder.url}` : "(still starting)";
  return startErrors.INSTANCE_RUNNING({ home, holder: `pid ${holder.pid} ${where}` });
}
