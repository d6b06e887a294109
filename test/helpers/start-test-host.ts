// The repository's suites boot hosts through the test kit (`@muster/plugin/testing`): this file
// only binds the kit to this checkout's host and built-in plugins and keeps the suites' habits.
import "../../core/node-version-guard.js";
import "reflect-metadata";
import { rmSync } from "node:fs";
import * as kit from "@muster/plugin/testing";
import { createHost, type Host } from "../../core/host.ts";
import type { ConfigOverrides } from "../../core/internal/config.ts";
import { builtInPlugins } from "../../plugins/built-in.ts";

export type { RequestInitJson } from "@muster/plugin/testing";

export type StartOptions = Omit<kit.TestHostOptions<typeof createHost>, "createHost">;

export interface TestHost extends Omit<kit.TestHost<Host, ConfigOverrides>, "stop" | "restart"> {
  /** Stops the host; the home stays (the suites remove it with removeHome, some read it after the stop). */
  stop(): Promise<void>;
  /** Stops the host and starts a new one on the same home (data survives). */
  restart(overrides?: ConfigOverrides): Promise<TestHost>;
}

/** The suites' host: the built-ins unless told otherwise, as the CLI assembles Muster. */
const bind = (options: StartOptions): kit.TestHostOptions<typeof createHost> => ({ ...options, createHost, plugins: options.plugins ?? builtInPlugins });

function adapt(t: kit.TestHost<Host, ConfigOverrides>): TestHost {
  return { ...t, stop: () => t.stop({ keepHome: true }), restart: async (overrides) => adapt(await t.restart(overrides)) };
}

export async function startTestHost(options: StartOptions = {}): Promise<TestHost> {
  return adapt(await kit.startTestHost(bind(options)));
}

/**
 * Starts a host, runs `fn` with it, then always stops it and removes its home (also when
 * `fn` throws). See the kit's withTestHost.
 */
export async function withTestHost<T>(options: StartOptions, fn: (h: TestHost) => Promise<T> | T): Promise<T>;
export async function withTestHost<T>(fn: (h: TestHost) => Promise<T> | T): Promise<T>;
export async function withTestHost<T>(a: StartOptions | ((h: TestHost) => Promise<T> | T), b?: (h: TestHost) => Promise<T> | T): Promise<T> {
  const [options, fn] = typeof a === "function" ? [{}, a] : [a, b!];
  return kit.withTestHost(bind(options), (h) => fn(adapt(h)));
}

/** Removes a temporary home after a suite. */
export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}
