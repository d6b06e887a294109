// Shared set-up for the search suites: a temporary home whose workspace holds real files
// before the host starts, and bounded polling.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startTestHost, type StartOptions, type TestHost } from "../../helpers/start-test-host.ts";
import { waitUntil as waitFor } from "../../helpers/wait.ts";
import { inTeam } from "../../helpers/team-host.ts";
import type { ApiBody } from "@muster/plugin/testing";
import type { EventBus, PluginContext, WorkspaceFileChange } from "@muster/plugin";

/** Writes `files` (workspace-relative path -> content) under `workspace`. */
export function writeFiles(workspace: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
}

/** Starts a host whose workspace already holds `files`; by default returns once the start-up build has ended. */
export async function startWithFiles(files: Record<string, string | Uint8Array>, options: StartOptions & { waitForIndex?: boolean } = {}): Promise<TestHost> {
  const home = mkdtempSync(join(tmpdir(), "muster-search-"));
  const workspace = join(home, "workspace");
  writeFiles(workspace, files);
  const { waitForIndex = true, ...start } = options;
  const h = await startTestHost({ ...start, home, workspace });
  if (waitForIndex) await whenIndexed(h);
  return h;
}

/** GET /api/search with the given query string parameters. */
export function search(h: TestHost, params: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  return h.json<ApiBody<"getSearch">>(`/api/search?${qs}`);
}

/**
 * Polls `check` every 25 ms until it returns true (true) or `timeoutMs` passes (false), for
 * `assert.ok(await waitUntil(...), label)`. Against a two-instance team (`MUSTER_TEST_TEAM=1`)
 * it must hold twice in a row: the requests alternate, so through each instance (a change is
 * the deployment's once every instance answers it); `anyInstance` for what is one instance's
 * own by design.
 */
export const waitUntil = (check: () => Promise<boolean>, timeoutMs = 5_000, options: { anyInstance?: boolean } = {}): Promise<boolean> =>
  waitFor(inTeam && !options.anyInstance ? onEachInstance(check) : check, { timeoutMs, intervalMs: 25 }).then(
    () => true,
    () => false,
  );

/** `check`, true once it held on two consecutive calls (each request of a team's suite goes to the other instance). */
function onEachInstance(check: () => Promise<boolean>): () => Promise<boolean> {
  let held = 0;
  return async () => {
    held = (await check()) ? held + 1 : 0;
    return held >= 2;
  };
}

/** Waits until the start-up load or build (and any re-index) has ended: searches never wait for it themselves. */
export async function whenIndexed(h: TestHost, timeoutMs = 15_000): Promise<void> {
  await waitFor(async () => (await search(h, { q: "zz" })).body.stats?.indexing === false, { timeoutMs, intervalMs: 10, label: "search index built" });
}

/**
 * The event buses of the running hosts, to publish what the workspace watcher would: on each
 * instance of a team, as every instance's own watcher reports a change of the shared
 * workspace. `add` from a test plugin's `onStart`.
 */
export function watcherBuses() {
  const buses = new Set<EventBus>();
  return {
    add(ctx: PluginContext): void {
      buses.add(ctx.events);
      ctx.lifecycle.onStop(() => void buses.delete(ctx.events));
    },
    publish(type: WorkspaceFileChange["type"], path: string, workspace: string): void {
      for (const bus of buses) bus.publish("workspace.file.changed", { type, path, absolutePath: join(workspace, path), timestamp: Date.now() });
    },
  };
}
