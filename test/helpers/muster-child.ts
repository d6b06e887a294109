// A Muster server as a child process (`node core/main.ts start`, as `npm start` runs it) on a
// home that outlives it, so a test can SIGKILL it mid-run and start another on the same data.
// Spawning and the wait for /api/health are bench:api's (scripts/bench/processes.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, startServer, type RunningServer } from "../../scripts/bench/processes.ts";
import { waitUntil } from "./wait.ts";
import type { FromRoute, JsonBody } from "@muster/plugin/testing";
import { scaled } from "./time-scale.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

export interface ChildOptions {
  home: string;
  workspace: string;
  gatewayUrl: string;
  gatewayToken: string;
  /** muster.config.json's `config` (per-plugin settings), rewritten before this start. */
  pluginConfig?: Record<string, unknown>;
  /** More environment (MUSTER_OWNER, say). */
  env?: Record<string, string>;
  /** Bound on the start and on the gateway connecting (default 20 s). */
  timeoutMs?: number;
}

export interface MusterChild {
  url: string;
  /** Milliseconds from spawn to the gateway connected. */
  startMs: number;
  /** `session: true` sends the child's session token (from its home). */
  /** Typed as the test kit's `h.json`: the route's answer from the path and method, else `unknown`. */
  json<T = FromRoute, const P extends string = string, M extends string = "GET">(path: P, init?: { method?: M | (string & {}); body?: unknown; session?: boolean }): Promise<{ status: number; body: JsonBody<T, M, P> }>;
  /** SIGKILL (no shutdown hook runs) and wait for the exit; safe to call twice. */
  kill(): Promise<void>;
  /** What the child wrote to stdout/stderr (for failure messages). */
  output(): string;
}

export async function startMusterChild(options: ChildOptions): Promise<MusterChild> {
  const started = Date.now();
  writeFileSync(join(options.home, "muster.config.json"), JSON.stringify({ config: options.pluginConfig ?? {} }));
  const port = await freePort();
  // Stretched with the load: a child start took over 20 s at a load average of 12 on 2 CPUs.
  const timeoutMs = options.timeoutMs ?? scaled(20_000);
  const server: RunningServer = await startServer({
    name: "muster",
    args: ["core/main.ts", "start"],
    env: {
      PORT: String(port),
      MUSTER_HOME: options.home,
      WORKSPACE_DIR: options.workspace,
      GATEWAY_URL: options.gatewayUrl,
      GATEWAY_TOKEN: options.gatewayToken,
      LOG_LEVEL: "warn",
      ...options.env,
    },
    port,
    cwd: ROOT,
    timeoutMs,
  });
  const url = `http://127.0.0.1:${port}`;
  const child: MusterChild = {
    url,
    startMs: 0,
    // The parsed body is the server's JSON, typed by the signature from the route's contract.
    json: (async (path: string, init: { method?: string; body?: unknown; session?: boolean } = {}): Promise<{ status: number; body: unknown }> => {
      // A connection per request, as the in-process kit does (test-host.ts): a test blocked in a
      // synchronous helper past the server's keep-alive would otherwise send on a closed socket.
      const headers: Record<string, string> = init.body === undefined ? { connection: "close" } : { connection: "close", "content-type": "application/json" };
      if (init.session) headers["x-session-token"] = readFileSync(join(options.home, "session-token"), "utf8").trim();
      const res = await fetch(`${url}${path}`, {
        method: init.method ?? "GET",
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    }) as MusterChild["json"],
    kill() {
      const proc = server.child;
      if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        proc.once("exit", () => resolve());
        proc.kill("SIGKILL");
      });
    },
    output: server.output,
  };
  try {
    await waitUntil(async () => (await child.json("/api/health")).body?.gateway?.state === "connected", { timeoutMs, intervalMs: 20, label: "the child's gateway connected" });
  } catch (error) {
    await child.kill();
    throw new Error(`${(error as Error).message}\n${server.output()}`);
  }
  child.startMs = Date.now() - started;
  return child;
}
