// Shared set-up for the search suites: a temporary home whose workspace holds real files
// before the host starts, and bounded polling.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startTestHost, type StartOptions, type TestHost } from "../../helpers/start-test-host.ts";
import { waitUntil as waitFor } from "../../helpers/wait.ts";
import type { ApiBody } from "@muster/plugin/testing";

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

/** Polls `check` every 25 ms until it returns true (true) or `timeoutMs` passes (false), for `assert.ok(await waitUntil(...), label)`. */
export const waitUntil = (check: () => Promise<boolean>, timeoutMs = 5_000): Promise<boolean> =>
  waitFor(check, { timeoutMs, intervalMs: 25 }).then(
    () => true,
    () => false,
  );

/** Waits until the start-up load or build (and any re-index) has ended: searches never wait for it themselves. */
export async function whenIndexed(h: TestHost, timeoutMs = 15_000): Promise<void> {
  await waitFor(async () => (await search(h, { q: "zz" })).body.stats?.indexing === false, { timeoutMs, intervalMs: 10, label: "search index built" });
}
