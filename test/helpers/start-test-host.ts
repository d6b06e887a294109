// Boots a real host on 127.0.0.1 port 0 with a temporary MUSTER_HOME and workspace.
import "../../core/node-version-guard.js";
import "reflect-metadata";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHost, type Host, type HostOptions } from "../../core/host.ts";
import type { ConfigOverrides } from "../../core/internal/config.ts";
import { builtInPlugins } from "../../plugins/built-in.ts";

export interface TestHost {
  host: Host;
  url: string;
  home: string;
  workspace: string;
  token: string;
  /** fetch against the host; JSON bodies are serialised and the content type set. */
  request(path: string, init?: RequestInitJson): Promise<Response>;
  /** request() and parse the JSON answer. */
  json<T = any>(path: string, init?: RequestInitJson): Promise<{ status: number; body: T; headers: Headers }>;
  stop(): Promise<void>;
  /** Stops the host and starts a new one on the same home (data survives). */
  restart(overrides?: ConfigOverrides): Promise<TestHost>;
}

export interface RequestInitJson extends Omit<RequestInit, "body"> {
  body?: unknown;
  /** Adds the session token header. */
  session?: boolean;
}

export interface StartOptions extends Omit<HostOptions, "config"> {
  config?: ConfigOverrides;
  home?: string;
  workspace?: string;
}

export async function startTestHost(options: StartOptions = {}): Promise<TestHost> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), "muster-home-"));
  const workspace = options.workspace ?? join(home, "workspace");
  const host = createHost({
    ...options,
    // The test program assembles Muster as the CLI does: the built-ins unless told otherwise.
    plugins: options.plugins ?? builtInPlugins,
    env: options.env ?? {},
    // No gateway unless the test brings one (test/helpers/fake-gateway.ts): nothing dials port 18789.
    config: { port: 0, host: "127.0.0.1", logLevel: (process.env.LOG_LEVEL as "silent") ?? "silent", home, workspaceDir: workspace, gatewayUrl: "off", ...options.config },
  });
  await host.start();
  const url = host.url;
  const request = (path: string, init: RequestInitJson = {}) => {
    const headers = new Headers(init.headers);
    let body: RequestInit["body"];
    if (init.body !== undefined) {
      if (typeof init.body === "string" || init.body instanceof Uint8Array) body = init.body as RequestInit["body"];
      else {
        body = JSON.stringify(init.body);
        if (!headers.has("content-type")) headers.set("content-type", "application/json");
      }
    }
    if (init.session) headers.set("x-session-token", host.sessionToken);
    return fetch(`${url}${path}`, { ...init, headers, body });
  };
  const test: TestHost = {
    host,
    url,
    home,
    workspace,
    token: host.sessionToken,
    request,
    async json(path, init) {
      const res = await request(path, init);
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* leave as text */
      }
      return { status: res.status, body: parsed as any, headers: res.headers };
    },
    stop: () => host.stop(),
    async restart(overrides = {}) {
      await host.stop();
      return startTestHost({ ...options, home, workspace, config: { ...options.config, ...overrides } });
    },
  };
  return test;
}

/**
 * Starts a host, runs `fn` with it, then always stops it and removes its home (also when
 * `fn` throws), so a failing test leaks neither a server nor a temporary directory. A host
 * started by `h.restart()` is the one stopped; a `home` the caller passed is left in place.
 */
export async function withTestHost<T>(options: StartOptions, fn: (h: TestHost) => Promise<T> | T): Promise<T>;
export async function withTestHost<T>(fn: (h: TestHost) => Promise<T> | T): Promise<T>;
export async function withTestHost<T>(a: StartOptions | ((h: TestHost) => Promise<T> | T), b?: (h: TestHost) => Promise<T> | T): Promise<T> {
  const [options, fn] = typeof a === "function" ? [{}, a] : [a, b!];
  let current: TestHost;
  const track = (t: TestHost): TestHost => (current = { ...t, restart: async (overrides) => track(await t.restart(overrides)) });
  const h = track(await startTestHost(options));
  try {
    return await fn(h);
  } finally {
    await current!.stop();
    if (options.home === undefined) removeHome(h.home);
  }
}

/** Removes a temporary home after a suite. */
export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}

/**
 * Starts a host with these plugins (in a temporary home, always stopped and removed) and
 * returns the code of the error that stopped the start, or "started": for plugins whose
 * declarations must stop the start.
 */
export async function startErrorCode(options: Omit<StartOptions, "home">): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), "muster-home-"));
  try {
    await withTestHost({ ...options, home }, () => undefined);
    return "started";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    removeHome(home);
  }
}
