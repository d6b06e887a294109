// Runs the rest of a command inside a loopback-only network namespace when the machine
// allows one (`unshare -n` as root, `unshare -rn` with unprivileged user namespaces), so
// neither the gateway nor anything else of a test or bench run can reach past 127.0.0.1.
// Without one, the gateway's own switches (gateway-config.ts) are what keeps it offline.
import { spawn, spawnSync } from "node:child_process";

const MARK = "MUSTER_OPENCLAW_NETNS";

/** True in the re-executed process (inside the namespace, or after deciding to go without). */
export const insideNamespace = (): boolean => process.env[MARK] !== undefined;

function wrapper(): string[] | null {
  for (const flags of ["-n", "-rn"]) {
    const probe = spawnSync("unshare", [flags, "sh", "-c", "ip link set lo up"], { stdio: "ignore", timeout: 10_000 });
    if (probe.status === 0) return ["unshare", flags, "sh", "-c", 'ip link set lo up && exec "$@"', "sh"];
  }
  return null;
}

/**
 * Re-runs this very process (same Node, flags and arguments) inside a new namespace and
 * resolves with its exit code; resolves null when no namespace can be made here, and the
 * caller goes on in this process. Call it after anything that needs the network (the install).
 */
export function rerunInLoopbackNamespace(log: (line: string) => void): Promise<number> | null {
  const command = wrapper();
  if (!command) {
    log("no network namespace available (unshare); the gateway's own switches keep it offline");
    return null;
  }
  log("running inside a loopback-only network namespace");
  const [program, ...args] = command as [string, ...string[]];
  const child = spawn(program, [...args, process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, [MARK]: "1" },
  });
  // Ctrl-C reaches the child through the terminal; a SIGTERM sent to us alone is passed on.
  process.on("SIGINT", () => {});
  process.on("SIGTERM", () => child.kill("SIGTERM"));
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}
