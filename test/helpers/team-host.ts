// `MUSTER_TEST_TEAM=1` (issue 25): every test host is a team deployment of two in-process
// instances on one PostgreSQL database, the nearest the suites get to "the conformance suite
// against a two-instance deployment". Instance A is the host a test would get anyway; B is a
// second host with the same options (plugins, env with DATABASE_URL, config, gateway), a home
// of its own and A's workspace (a team shares its workspace, docs/team.md). The suite's
// requests (`request`, `json`, `client`, `clientAs`) go to A and B in turn, one request each,
// as haproxy's `roundrobin` would send them, so a write on one and the next read on the other
// happen all the time. `url`, `host`, `home` and `token` stay A's (the session token is the
// deployment's, so it is valid on B too: checked at start).
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMusterClient } from "@muster/sdk/client";
import * as kit from "@muster/plugin/testing";
import type { Callback, Test } from "uvu";
import type { createHost, Host } from "../../core/host.ts";
import type { ConfigOverrides } from "../../core/internal/config.ts";

export const inTeam = process.env.MUSTER_TEST_TEAM === "1";

type Options = kit.TestHostOptions<typeof createHost>;
type One = kit.TestHost<Host, ConfigOverrides>;

/** What a test may read of instance B (`TestHost.instanceB`): its address, host and home. */
export interface InstanceB {
  url: string;
  host: Host;
  home: string;
}

/** Starts the two instances; B's home is a fresh temporary one, removed by stop(). */
export async function startTeam(options: Options): Promise<One & { instanceB: InstanceB }> {
  const a = await kit.startTestHost(options);
  const homeB = mkdtempSync(join(tmpdir(), "muster-home-b-"));
  let b: One;
  try {
    b = await startB(options, a, homeB);
  } catch (error) {
    await a.stop();
    rmSync(homeB, { recursive: true, force: true });
    throw error;
  }
  return team(options, a, b, homeB);
}

/** B: A's options on its own home (with A's muster.config.json: a team configures each instance alike) and A's workspace, on a port of its own. */
async function startB(options: Options, a: One, homeB: string): Promise<One> {
  const configFile = join(a.home, "muster.config.json");
  if (existsSync(configFile)) copyFileSync(configFile, join(homeB, "muster.config.json"));
  const b = await kit.startTestHost({ ...options, home: homeB, workspace: a.workspace, config: { ...options.config, port: 0 } });
  if (b.token !== a.token) {
    await b.stop();
    throw new Error("MUSTER_TEST_TEAM: instance B's session token differs from A's (the token should be the deployment's)");
  }
  return b;
}

function team(options: Options, a: One, b: One, homeB: string): One & { instanceB: InstanceB } {
  const both = [a, b];
  let turn = 0;
  const next = (): One => both[turn++ % 2]!;
  // The SDK client builds URLs on A's address; each call goes to the instance whose turn it is.
  const roundRobin: typeof fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    return fetch(url.startsWith(a.url) ? next().url + url.slice(a.url.length) : url, init);
  };
  const stopB = async () => {
    await b.stop();
    rmSync(homeB, { recursive: true, force: true });
  };
  return {
    ...a,
    instanceB: { url: b.url, host: b.host, home: homeB },
    client: createMusterClient({ url: a.url, sessionToken: a.token, retries: 0, fetch: roundRobin }),
    clientAs: (agentId) => createMusterClient({ url: a.url, agentId, retries: 0, fetch: roundRobin }),
    request: (path, init) => next().request(path, init),
    json: ((path: string, init?: kit.RequestInitJson) => next().json(path, init)) as One["json"],
    // B first: A started first, so it is the primary and holds the gateway link; stopping it
    // first would hand both to B (a reconnect, a rag job) just before B stops too.
    async stop(stopOptions) {
      await stopB();
      await a.stop(stopOptions);
    },
    async restart(overrides) {
      await b.stop();
      const config = { ...options.config, ...overrides };
      const a2 = await a.restart(overrides);
      try {
        return team({ ...options, config }, a2, await startB({ ...options, config }, a2, homeB), homeB);
      } catch (error) {
        await a2.stop();
        rmSync(homeB, { recursive: true, force: true });
        throw error;
      }
    },
  };
}

/**
 * The suite's `test` for a test that needs one instance, not because the product does but
 * because the test does (it reaches into `h.host`, or asserts one process's in-memory state):
 * skipped, saying why, under `MUSTER_TEST_TEAM=1`.
 */
export function singleInstanceTest<T>(t: Test<T>, why: string): (name: string, fn: Callback<T>) => void {
  if (!inTeam) return t;
  return (name, fn) => {
    console.log(`skipped in team mode: "${name}": ${why}`);
    t.skip(name, fn);
  };
}
