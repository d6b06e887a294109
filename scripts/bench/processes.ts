// Child server processes for `npm run bench:api`: spawn, wait for the first successful
// GET /api/health, and stop (SIGTERM, then SIGKILL after a bound). Every child and temp
// dir is tracked so that one cleanup call removes all of them whatever happened.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
export { freePort } from "../lib/free-port.ts";

/** The checkouts a bench's command line names (`name=dir`, each dir resolved), or `[["this checkout", fallback]]` when it names none. */
export function namedCheckouts(args: readonly string[], fallback: string): (readonly [string, string])[] {
  const named = args.filter((a) => /^\w[\w-]*=/.test(a)).map((a) => [a.slice(0, a.indexOf("=")), resolve(a.slice(a.indexOf("=") + 1))] as const);
  return named.length ? named : [["this checkout", fallback]];
}

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

export interface RunningServer {
  name: string;
  port: number;
  child: ChildProcess;
  /** Milliseconds from spawn to the first 200 from GET /api/health. */
  readyMs: number;
  /** CPU time (user + system, all threads) the child had used when it was ready. */
  readyCpuMs: number | null;
  /** `uptimeMs` of that first health answer: time since the host object was created. */
  uptimeMs: number | null;
  /** Everything the child wrote to stderr/stdout (warnings, crash reasons). */
  output: () => string;
}

/** CPU seconds (user + system) of a process so far, from /proc (Linux only; null elsewhere). */
export function cpuSeconds(pid: number | undefined): number | null {
  const split = cpuSplitSeconds(pid);
  return split && split.user + split.system;
}

/** CPU seconds of a process so far in user space and in the kernel (system time), from /proc (Linux only; null elsewhere). */
export function cpuSplitSeconds(pid: number | undefined): { user: number; system: number } | null {
  if (pid === undefined) return null;
  try {
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 }; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/** User + system time of the process's main thread (the JavaScript thread), in ms (clock ticks of 10 ms); NaN when it is gone. */
export function mainThreadCpuMs(pid: number): number {
  const { user, system } = mainThreadCpuSplitMs(pid);
  return user + system;
}

/** The main thread's user and system (kernel: syscalls such as socket writes) time apart, in ms; NaN when it is gone. */
export function mainThreadCpuSplitMs(pid: number): { user: number; system: number } {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
  } catch {
    return { user: NaN, system: NaN };
  }
}

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}


/** The parsed body of a 200 from GET /api/health, or null for anything else. */
function health(port: number): Promise<Record<string, unknown> | null> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path: "/api/health", agent: false, timeout: 1_000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => void (body += chunk));
      res.once("end", () => {
        try {
          resolve(res.statusCode === 200 ? (JSON.parse(body) as Record<string, unknown>) : null);
        } catch {
          resolve(null);
        }
      });
    });
    req.once("error", () => resolve(null));
    req.once("timeout", () => req.destroy());
    req.end();
  });
}

/**
 * The bench's environment without Muster's own settings: a HOST, token, vault key or
 * gateway from the caller's shell would change what is measured (401s, key derivation).
 */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith("MUSTER_") || ["PORT", "HOST", "WORKSPACE_DIR", "GATEWAY_URL", "GATEWAY_TOKEN", "VAULT_KEY", "LOG_LEVEL", "NODE_ENV", "NODE_OPTIONS"].includes(key)) delete env[key];
  }
  return env;
}

export interface SpawnOptions {
  name: string;
  args: string[];
  env: Record<string, string>;
  port: number;
  cwd: string;
  timeoutMs: number;
}

/** Spawns a server and resolves once GET /api/health answers 200 (polled every 5 ms). */
export async function startServer(options: SpawnOptions): Promise<RunningServer> {
  let output = "";
  const started = performance.now();
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: { ...inheritedEnv(), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  child.stdout!.on("data", (d: Buffer) => void (output = (output + d.toString()).slice(-20_000)));
  child.stderr!.on("data", (d: Buffer) => void (output = (output + d.toString()).slice(-20_000)));
  const deadline = started + options.timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${options.name} exited (${child.exitCode ?? child.signalCode}) before answering /api/health:\n${output}`);
    }
    const body = await health(options.port);
    if (body) {
      const readyMs = performance.now() - started;
      const cpu = cpuSeconds(child.pid);
      const uptimeMs = typeof body.uptimeMs === "number" ? body.uptimeMs : null;
      return { name: options.name, port: options.port, child, readyMs, readyCpuMs: cpu === null ? null : cpu * 1000, uptimeMs, output: () => output };
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await stopServer(child);
  throw new Error(`${options.name} did not answer /api/health within ${options.timeoutMs} ms:\n${output}`);
}

/** SIGTERM and wait for exit (a graceful stop writes --cpu-prof files); SIGKILL after `graceMs`. */
export function stopServer(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Kills every child still running and removes every temp dir; safe to call twice. */
export function cleanupAll(): void {
  for (const child of children) child.kill("SIGKILL");
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}
