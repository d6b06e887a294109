// `muster status`: is a server running on this MUSTER_HOME, where, and is it healthy? It
// reads the instance lock (pid, url) and asks that server's /api/health. Exit code 0 when
// a server answers healthy, 1 otherwise (none running, still starting, degraded).
import { join } from "node:path";
import type { MusterConfig } from "./config.ts";
import { reachableUrl, readInstanceLock, runningInstance } from "./instance-lock.ts";

export interface StatusCommandDeps {
  config: MusterConfig;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

interface Health { status?: string; version?: string; uptimeMs?: number; database?: string }

export async function runStatusCommand({ config, stdout, stderr }: StatusCommandDeps): Promise<number> {
  const instance = runningInstance(config.home);
  if (!instance) {
    const stale = readInstanceLock(config.home) ? " (a stale lock of a stopped server was left; the next start takes it over)" : "";
    stderr.write(`muster status: no server is running on MUSTER_HOME ${config.home}${stale}\n`);
    return 1;
  }
  if (!instance.url) {
    stderr.write(`muster status: pid ${instance.pid} is still starting on MUSTER_HOME ${config.home}\n`);
    return 1;
  }
  const url = reachableUrl(instance.url);
  let res: Response;
  try {
    res = await fetch(`${url}/api/health`, {
      headers: config.apiToken ? { authorization: `Bearer ${config.apiToken}` } : {},
      signal: AbortSignal.timeout(5_000),
    });
  } catch {
    stderr.write(`muster status: pid ${instance.pid} holds MUSTER_HOME ${config.home} but nothing answers at ${url}\n`);
    return 1;
  }
  const health = (await res.json().catch(() => ({}))) as Health;
  const lines = [
    `url:       ${instance.url}`,
    `pid:       ${instance.pid}`,
    `version:   ${health.version ?? instance.version}`,
    `uptime:    ${typeof health.uptimeMs === "number" ? formatUptime(health.uptimeMs) : "unknown"}`,
    `status:    ${health.status ?? `HTTP ${res.status}`}`,
    `database:  ${health.database ?? "unknown"}`,
    `home:      ${config.home}`,
    `token:     ${join(config.home, "session-token")}`,
  ];
  stdout.write(`${lines.join("\n")}\n`);
  return res.ok && health.status === "ok" ? 0 : 1;
}

function formatUptime(ms: number): string {
  const s = Math.floor(ms / 1000);
  const parts = [[Math.floor(s / 86_400), "d"], [Math.floor(s / 3_600) % 24, "h"], [Math.floor(s / 60) % 60, "m"], [s % 60, "s"]] as const;
  const shown = parts.filter(([n], i) => n > 0 || i === parts.length - 1);
  return shown.map(([n, unit]) => `${n}${unit}`).join(" ");
}
