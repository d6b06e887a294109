// One real OpenClaw gateway on 127.0.0.1 for a whole test or bench run (it takes 10-17 s
// to become ready and about 1 GB of memory, so never one per test). Isolated state under a
// temporary directory, a token generated per run, readiness from GET /readyz.
// `startGatewayPeer()` resolves only once the gateway is ready (there is no started-but-not-
// running peer to forget to start); `stop()` and `start()` restart it on the same state. Always
// stopped: `dispose()` at the end, and on Ctrl-C or exit the process group is killed and
// its files removed, including its locks in the dir the gateway hard-codes under /tmp (§3.2).
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../lib/free-port.ts";
import { gatewayConfig, gatewayEnv, peerLayout, type PeerLayout } from "./gateway-config.ts";

export interface GatewayPeerOptions {
  /** `node_modules/openclaw/openclaw.mjs` of the cached install. */
  entry: string;
  /** The fake model's base URL (ending in /v1). */
  modelBaseUrl: string;
  /** More agents than the test peer's `main` and `helper` (gateway:try registers the crew of the organisation file). */
  agents?: readonly string[];
  /** Listen here (default: a free port). */
  port?: number;
  /** The shared token (default: a random one per peer). */
  token?: string;
  /** Give up when /readyz is not 200 after this long (default 180 s, or MUSTER_OPENCLAW_READY_TIMEOUT_MS: 10-17 s on a quiet 2-core machine, 60-90 s under heavy load). */
  readyTimeoutMs?: number;
}

export interface GatewayPeer {
  /** `ws://127.0.0.1:<port>`, what Muster's GATEWAY_URL is set to. */
  url: string;
  httpUrl: string;
  port: number;
  token: string;
  layout: PeerLayout;
  /** The `performance.now()` at which /readyz last turned 200. */
  readyAt: number;
  running(): boolean;
  /** Starts the gateway again after `stop()` (same state dir); resolves when /readyz answers 200. */
  start(): Promise<{ readyAt: number }>;
  /** SIGTERM to the process group, SIGKILL after 15 s; resolves when it has exited. */
  stop(): Promise<void>;
  /** The last lines of the gateway's stdout/stderr (for a failure report). */
  logTail(lines?: number): string;
  /** Stops the gateway and removes every file it wrote. Safe to call twice. */
  dispose(): Promise<void>;
}

const LOCK_DIR = `/tmp/openclaw-state-locks-${process.getuid?.() ?? 0}`;
const STOP_GRACE_MS = 15_000;
// 10-17 s on a quiet 2-core machine (reference §3.5); far more when the machine is loaded.
const READY_TIMEOUT_MS = Number(process.env.MUSTER_OPENCLAW_READY_TIMEOUT_MS ?? 180_000);
const live = new Set<{ kill(): void }>();

// Sync last resort: an exit without dispose() (a crash, a Ctrl-C) must not leave a 1 GB
// gateway or its state behind.
process.once("exit", () => {
  for (const peer of live) peer.kill();
});

/**
 * Starts one gateway and resolves when it is ready. A gateway that fails to become ready is
 * disposed (nothing left running or on disk) and the error carries its last output lines.
 */
export async function startGatewayPeer(options: GatewayPeerOptions): Promise<GatewayPeer> {
  const peer = await createGatewayPeer(options);
  try {
    await peer.start();
  } catch (error) {
    const tail = peer.logTail();
    await peer.dispose();
    throw new Error(`${(error as Error).message}\n${tail}`, { cause: error });
  }
  return peer;
}

async function createGatewayPeer(options: GatewayPeerOptions): Promise<GatewayPeer> {
  const layout = peerLayout(mkdtempSync(join(tmpdir(), "muster-openclaw-")));
  for (const dir of [layout.stateDir, layout.homeDir, layout.tmpDir, join(layout.stateDir, "logs")]) mkdirSync(dir, { recursive: true });
  const port = options.port ?? (await freePort());
  const token = options.token ?? randomBytes(24).toString("hex");
  writeFileSync(layout.configPath, JSON.stringify(gatewayConfig(layout, port, options.modelBaseUrl, options.agents), null, 2));
  const httpUrl = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let disposed = false;

  const killGroup = (signal: NodeJS.Signals) => {
    if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  };
  const removeFiles = () => {
    removeOwnLocks(layout.stateDir);
    rmSync(layout.root, { recursive: true, force: true });
  };
  const tracker = {
    kill() {
      killGroup("SIGKILL");
      removeFiles();
    },
  };
  live.add(tracker);

  const peer: GatewayPeer = {
    url: `ws://127.0.0.1:${port}`,
    httpUrl,
    port,
    token,
    layout,
    readyAt: 0,
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    async start() {
      if (disposed) throw new Error("the gateway peer was disposed");
      if (peer.running()) throw new Error("the gateway is already running");
      const out = openSync(layout.outputFile, "a");
      child = spawn(process.execPath, [options.entry, "gateway", "run", "--port", String(port)], {
        cwd: layout.root,
        env: gatewayEnv(layout, token),
        stdio: ["ignore", out, out],
        // Its own process group, so stop() reaches the gateway's worker children too.
        detached: true,
      });
      closeSync(out);
      const spawned = child;
      const readyAt = await waitForReady(httpUrl, () => spawned.exitCode !== null || spawned.signalCode !== null, options.readyTimeoutMs ?? READY_TIMEOUT_MS).catch(async (error: Error) => {
        // The caller prints logTail() with its failure report.
        await peer.stop();
        throw error;
      });
      peer.readyAt = readyAt;
      return { readyAt };
    },
    stop() {
      const running = child;
      if (!running || !peer.running()) return Promise.resolve();
      return new Promise((resolve) => {
        const force = setTimeout(() => killGroup("SIGKILL"), STOP_GRACE_MS);
        running.once("exit", () => {
          clearTimeout(force);
          // Workers left in the group after the main process exited.
          try {
            process.kill(-running.pid!, "SIGKILL");
          } catch {
            /* none left */
          }
          resolve();
        });
        killGroup("SIGTERM");
      });
    },
    logTail(lines = 80) {
      // The JSON log file repeats the same lines; the readable output is enough to diagnose.
      const text = existsSync(layout.outputFile) ? readFileSync(layout.outputFile, "utf8") : "(no output)";
      const tail = text.split("\n").slice(-lines).map((line) => (line.length > 400 ? `${line.slice(0, 400)}…` : line));
      return `--- last ${lines} lines of the gateway's output ---\n${tail.join("\n")}`;
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await peer.stop();
      removeFiles();
      live.delete(tracker);
    },
  };
  return peer;
}

/**
 * The gateway's lock files sit in a directory shared by every gateway of this user, named
 * `<kind>.<first 8 hex of sha256(database path)>.lock.sqlite` (observed), so only the ones
 * of this peer's databases are removed: another run's gateway keeps its locks.
 */
function removeOwnLocks(stateDir: string): void {
  if (!existsSync(LOCK_DIR)) return;
  const hashes = new Set(sqliteFiles(stateDir).map((path) => createHash("sha256").update(path).digest("hex").slice(0, 8)));
  for (const name of readdirSync(LOCK_DIR)) {
    if ([...hashes].some((hash) => name.includes(`.${hash}.`))) rmSync(join(LOCK_DIR, name), { force: true });
  }
  if (readdirSync(LOCK_DIR).length === 0) rmSync(LOCK_DIR, { recursive: true, force: true });
}

function sqliteFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(realpathSync(dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".sqlite"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Polls GET /readyz; resolves with the `performance.now()` of the first 200. */
export async function waitForReady(httpUrl: string, exited: () => boolean, timeoutMs: number, intervalMs = 25): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (exited()) throw new Error("the gateway exited before it was ready");
    try {
      const res = await fetch(`${httpUrl}/readyz`, { signal: AbortSignal.timeout(1_000) });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now();
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`the gateway's /readyz was not 200 within ${timeoutMs} ms`);
}
