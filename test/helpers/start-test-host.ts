// The repository's suites boot hosts through the test kit (`@muster/plugin/testing`): this file
// only binds the kit to this checkout's host and built-in plugins and keeps the suites' habits.
import "../../core/node-version-guard.js";
import "reflect-metadata";
import { rmSync } from "node:fs";
import * as kit from "@muster/plugin/testing";
import { createHost, type Host } from "../../core/host.ts";
import type { ConfigOverrides } from "../../core/internal/config.ts";
import { builtInPlugins } from "../../plugins/built-in.ts";
import { startPostgres, type PostgresCluster } from "./postgres-cluster.ts";
import { inTeam, startTeam, type InstanceB } from "./team-host.ts";

export type { RequestInitJson } from "@muster/plugin/testing";

export type StartOptions = Omit<kit.TestHostOptions<typeof createHost>, "createHost">;

export interface TestHost extends Omit<kit.TestHost<Host, ConfigOverrides>, "stop" | "restart"> {
  /** Under `MUSTER_TEST_TEAM=1`, the deployment's second instance (team-host.ts); requests alternate between A (this host) and B. */
  instanceB?: InstanceB;
  /** Stops the host; the home stays (the suites remove it with removeHome, some read it after the stop). */
  stop(): Promise<void>;
  /** Stops the host and starts a new one on the same home (data survives). */
  restart(overrides?: ConfigOverrides): Promise<TestHost>;
}

/** The suites' host: the built-ins unless told otherwise, as the CLI assembles Muster. */
const bind = (options: StartOptions): kit.TestHostOptions<typeof createHost> => ({ ...options, createHost, plugins: options.plugins ?? builtInPlugins });

// `MUSTER_TEST_POSTGRES=1` runs any suite on PostgreSQL (issue 25): each host gets a fresh
// database on one throwaway cluster, started on the first host of the test process and stopped
// when the process ends (postgres-cluster.ts's watchdog). A restart keeps the host's options,
// so its database; a host started again on a home it already used gets that home's database.
// `MUSTER_TEST_TEAM=1` implies it: each host is then two instances on its database (team-host.ts).
export const onPostgres = process.env.MUSTER_TEST_POSTGRES === "1" || inTeam;
let cluster: Promise<PostgresCluster> | undefined;
const databaseOfHome = new Map<string, string>();

/** The options with a PostgreSQL database under the switch, unless they already name one. */
async function onEngine(options: StartOptions): Promise<StartOptions> {
  if (!onPostgres || options.env?.DATABASE_URL || options.config?.databaseUrl !== undefined) return options;
  const url = (options.home && databaseOfHome.get(options.home)) || (await (await (cluster ??= startPostgres())).createDatabase());
  return { ...options, env: { ...options.env, DATABASE_URL: url } };
}

/** Remembers the database of a host's home, for a later host on that home. */
function remember<H extends { home: string }>(h: H, options: StartOptions): H {
  if (onPostgres && options.env?.DATABASE_URL) databaseOfHome.set(h.home, options.env.DATABASE_URL);
  return h;
}

function adapt(t: kit.TestHost<Host, ConfigOverrides>): TestHost {
  return { ...t, stop: () => t.stop({ keepHome: true }), restart: async (overrides) => adapt(await t.restart(overrides)) };
}

/** One host, or under `MUSTER_TEST_TEAM=1` a deployment of two (team-host.ts). */
const start = (options: kit.TestHostOptions<typeof createHost>) => (inTeam ? startTeam(options) : kit.startTestHost(options));

export async function startTestHost(options: StartOptions = {}): Promise<TestHost> {
  const engine = await onEngine(options);
  return adapt(remember(await start(bind(engine)), engine));
}

/**
 * Starts a host, runs `fn` with it, then always stops it and removes its home (also when
 * `fn` throws). See the kit's withTestHost.
 */
export async function withTestHost<T>(options: StartOptions, fn: (h: TestHost) => Promise<T> | T): Promise<T>;
export async function withTestHost<T>(fn: (h: TestHost) => Promise<T> | T): Promise<T>;
export async function withTestHost<T>(a: StartOptions | ((h: TestHost) => Promise<T> | T), b?: (h: TestHost) => Promise<T> | T): Promise<T> {
  const [options, fn] = typeof a === "function" ? [{}, a] : [a, b!];
  const engine = await onEngine(options);
  if (!inTeam) return kit.withTestHost(bind(engine), (h) => fn(adapt(remember(h, engine))));
  // The kit's withTestHost, on a team: the host a restart made is the one stopped.
  type One = kit.TestHost<Host, ConfigOverrides>;
  let current: One;
  const track = (t: One): One => (current = { ...t, restart: async (overrides) => track(await t.restart(overrides)) });
  const h = track(await startTeam(bind(engine)));
  try {
    return await fn(adapt(remember(h, engine)));
  } finally {
    await current!.stop();
  }
}

/** Removes a temporary home after a suite. */
export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}
