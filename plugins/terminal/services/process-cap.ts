// The kernel ignores RLIMIT_NPROC for root, so when Muster runs as root (containers) a
// sandboxed fork bomb is capped by a pids cgroup per command instead, where the cgroup
// filesystem is writable. Non-root users get the rlimit inside the sandbox's user namespace.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const CANDIDATES = ["/sys/fs/cgroup/pids", "/sys/fs/cgroup"];

/** A writable pids-controller directory to create per-command cgroups in, or null. */
export function findPidsCgroupRoot(): string | null {
  for (const root of CANDIDATES) {
    if (!existsSync(join(root, root.endsWith("pids") ? "tasks" : "cgroup.subtree_control"))) continue;
    const probe = join(root, `muster-probe-${randomUUID()}`);
    try {
      mkdirSync(probe);
      const ok = existsSync(join(probe, "pids.max"));
      rmdirSync(probe);
      if (ok) return root;
    } catch {
      // not writable or no pids controller here
    }
  }
  return null;
}

export interface PidsCgroup {
  /** Write a pid here to move that process (and its future children) into the cgroup. */
  procsFile: string;
  /** Kills whatever is still in the cgroup and removes it. */
  release(): Promise<void>;
}

export function createPidsCgroup(root: string, maxProcesses: number): PidsCgroup {
  const dir = join(root, `muster-terminal-${randomUUID()}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "pids.max"), String(maxProcesses));
  return {
    procsFile: join(dir, "cgroup.procs"),
    async release() {
      for (let attempt = 0; attempt < 50; attempt++) {
        try {
          const pids = readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean);
          for (const pid of pids) {
            try {
              process.kill(Number(pid), "SIGKILL");
            } catch {
              // exited meanwhile
            }
          }
          rmdirSync(dir);
          return;
        } catch {
          // busy until the killed processes are reaped; retry
          await sleep(10);
        }
      }
    },
  };
}
