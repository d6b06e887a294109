// Bubblewrap: how a sandboxed command is started, and whether this machine can start one.
import { execFile, type ExecFileOptions } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { findPidsCgroupRoot } from "./process-cap.ts";
import { musterPlacesBelow, RUNNING_INSTALLATION } from "./muster-places.ts";
import { isInside, realPathLoose, type MusterData } from "./working-directory.ts";

/** execFile as a promise, made on first use: `node:child_process` then loads with the terminal's onStart, after the server listens, not with this module. */
const run = (file: string, args: string[], options: ExecFileOptions) => promisify(execFile)(file, args, options);

/** Inside the sandbox PATH is fixed: the program found is the one the blocklist checked. */
export const SANDBOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** System directories shown read-only (or as the symlinks they are on merged-/usr systems). */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/** What of /etc programs need to start and name users; never shadow, ssh keys or credentials. */
const ETC_ENTRIES = ["ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "passwd", "group", "nsswitch.conf", "hosts", "localtime", "timezone", "mime.types", "magic", "services", "protocols"];

export interface SandboxLimits {
  maxProcesses: number;
  maxFileBytes: number;
  cpuSeconds: number;
}

/**
 * With `$HOME` itself writable (cwd is `$HOME` or above it), its existing dot entries are
 * covered: credentials (`.ssh`, `.aws`, `.gitconfig`, ...) stay unreadable, and shell start-up
 * files (`.bashrc`, `.profile`) cannot be rewritten to run code outside the sandbox later.
 * Directories get an empty tmpfs, files an empty read-only /dev/null.
 */
function homeDotfileMasks(cwd: string): string[] {
  let home: string;
  try {
    home = realpathSync(homedir());
  } catch {
    return [];
  }
  if (!isInside(cwd, home)) return [];
  const masks: string[] = [];
  for (const entry of readdirSync(home, { withFileTypes: true })) {
    if (!entry.name.startsWith(".")) continue;
    const path = join(home, entry.name);
    if (entry.isDirectory()) masks.push("--tmpfs", path);
    else if (entry.isFile()) masks.push("--ro-bind", "/dev/null", path);
  }
  return masks;
}

/** The temp directory as a real path: a cwd equal to it is the sandbox's own private /tmp. */
const tempDirectory = () => realPathLoose(tmpdir());

/** The directory a command sees as its cwd: the host's, or /tmp when it is mapped onto the private one. */
export function sandboxDirectory(cwd: string): string {
  return cwd === tempDirectory() ? "/tmp" : cwd;
}

/**
 * Where the command works: the host's `cwd` bound writable, or, when `cwd` is the temp
 * directory itself, the sandbox's private /tmp (the host's temp directory holds other
 * instances' data directories and other users' files: none of it is shown). Inside a bound
 * cwd, every Muster installation and data directory (muster-places.ts) is covered by an empty
 * tmpfs, so no session token, database or source file can be read or written; the workspace,
 * when it lies inside one of them, is shown again.
 */
function workingDirectoryMounts(cwd: string, data: MusterData | undefined): string[] {
  if (cwd === tempDirectory()) return ["--chdir", "/tmp"];
  const args = ["--bind", cwd, cwd, ...homeDotfileMasks(cwd)];
  const covered = musterPlacesBelow(cwd, data ? [RUNNING_INSTALLATION, data.home] : [RUNNING_INSTALLATION]);
  for (const place of covered) args.push("--tmpfs", place);
  if (data && covered.some((place) => isInside(place, data.workspace)) && existsSync(data.workspace)) args.push("--bind", data.workspace, data.workspace);
  const repositories = data && isInside(cwd, data.workspace) ? [cwd, data.workspace] : [cwd];
  args.push(...gitConfigMounts(repositories));
  return [...args, "--chdir", cwd];
}

/**
 * The git configuration of the workspace's repository (and of one at cwd) is read-only
 * inside the sandbox. /api/git refuses a repository whose config names a program (a filter,
 * a diff driver, ...), but it checks before git reads the file: a command rewriting the file
 * in that instant would have git run its program outside the sandbox. Read-only, the file
 * cannot change while a command runs; `.git` is bound onto itself, and a mount point cannot
 * be renamed or removed (EBUSY), so no other `.git` can take its place. Commits, branches
 * and everything else in `.git` stay writable.
 */
function gitConfigMounts(repositories: string[]): string[] {
  const args: string[] = [];
  for (const repository of new Set(repositories)) {
    const gitDir = join(repository, ".git");
    try {
      if (!lstatSync(gitDir).isDirectory()) continue;
    } catch {
      continue;
    }
    args.push("--bind", gitDir, gitDir);
    for (const file of ["config", "config.worktree"]) {
      const path = join(repository, ".git", file);
      try {
        if (lstatSync(path).isFile()) args.push("--ro-bind", path, path);
      } catch {
        // No repository here, or no such file.
      }
    }
  }
  return args;
}

/** The mounts of the sandbox: read-only system, private /tmp, /proc and /dev, and `cwd` the only writable place. */
function mounts(cwd: string, data: MusterData | undefined): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    if (!existsSync(dir)) continue;
    const stat = lstatSync(dir);
    if (stat.isSymbolicLink()) args.push("--symlink", readlinkSync(dir), dir);
    else if (stat.isDirectory()) args.push("--ro-bind", dir, dir);
  }
  for (const entry of ETC_ENTRIES) args.push("--ro-bind-try", `/etc/${entry}`, `/etc/${entry}`);
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", ...workingDirectoryMounts(cwd, data));
  return args;
}

/**
 * The argv that runs `command` with `sh -c` in a new namespace of every kind (no network),
 * without capabilities, dying with Muster, in its own session (no TIOCSTI into Muster's
 * terminal), under rlimits.
 */
export function bwrapArgv(command: string, cwd: string, limits: SandboxLimits, data?: MusterData): string[] {
  return [
    "bwrap",
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    // Started by root, bwrap would hand the command every capability (mknod a disk, mount it): none.
    "--cap-drop",
    "ALL",
    ...mounts(cwd, data),
    "--",
    "prlimit",
    `--nproc=${limits.maxProcesses}`,
    `--fsize=${limits.maxFileBytes}`,
    `--cpu=${limits.cpuSeconds}`,
    "--core=0",
    "--",
    "/bin/sh",
    "-c",
    command,
  ];
}

export type SandboxMode = { sandbox: "bwrap"; pidsCgroupRoot: string | null } | { sandbox: "none"; reason: string };

/** The first line of a failed trial's error output, for the log. */
function why(error: unknown): string {
  const e = error as { stderr?: string; code?: string | number; message?: string };
  return (e.stderr?.trim().split("\n")[0] || e.code?.toString() || e.message || "unknown error").slice(0, 300);
}

/**
 * Whether sandboxed commands can run here: `bwrap --version`, then a real sandboxed `true`
 * (bwrap may be installed but fail in a container without user namespaces).
 */
export async function detectSandbox(limits: SandboxLimits): Promise<SandboxMode> {
  try {
    await run("bwrap", ["--version"], { timeout: 5000 });
  } catch (error) {
    return { sandbox: "none", reason: `bwrap --version failed: ${why(error)}` };
  }
  const argv = bwrapArgv("true", tmpdir(), limits);
  try {
    await run(argv[0]!, argv.slice(1), { timeout: 10_000, env: { PATH: SANDBOX_PATH } });
  } catch (error) {
    return { sandbox: "none", reason: `a trial sandboxed command failed: ${why(error)}` };
  }
  // RLIMIT_NPROC does not bind root; a pids cgroup does, where one can be made.
  const root = process.getuid?.() === 0;
  return { sandbox: "bwrap", pidsCgroupRoot: root ? findPidsCgroupRoot() : null };
}
