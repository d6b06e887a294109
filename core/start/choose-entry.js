// @ts-check
// Which code `muster` runs: the start-up bundle when it matches the sources (fast), else the
// sources themselves, and then a rebuild in the background so the next start is fast again.
// `MUSTER_START_BUNDLE=off` always runs the sources (debugging with source paths);
// `no-rebuild` runs the bundle when fresh but never starts a rebuild.
// `MUSTER_START_BUNDLE_DIR` puts the bundle elsewhere (tests; a read-only install).
import { mkdirSync, rmSync, statSync } from "node:fs";
import { setPriority } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { BUNDLE_DIR, freshBundle } from "./bundle-manifest.js";

/** A rebuild that started longer ago than this died: its lock is taken over. */
const LOCK_STALE_MS = 120_000;

/**
 * @param {string} root the checkout
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ cli: string; pluginApi: string | null; bundled: boolean }} the module to import,
 *   and where `@muster/plugin` resolves for third-party plugins when the bundle runs
 */
export function chooseEntry(root, env) {
  const dir = env.MUSTER_START_BUNDLE_DIR || join(root, BUNDLE_DIR);
  if (env.MUSTER_START_BUNDLE !== "off") {
    const bundle = freshBundle(dir, root);
    if (bundle) {
      return {
        cli: pathToFileURL(join(bundle.dir, bundle.manifest.entries.cli)).href,
        pluginApi: pathToFileURL(join(bundle.dir, bundle.manifest.entries.pluginApi)).href,
        bundled: true,
      };
    }
    if (env.MUSTER_START_BUNDLE !== "no-rebuild") rebuildInBackground(root, dir);
  }
  return { cli: pathToFileURL(join(root, "core/cli.ts")).href, pluginApi: null, bundled: false };
}

/**
 * One rebuild at a time (a lock directory), detached, at low priority, output discarded.
 * @param {string} root
 * @param {string} dir where the bundle goes
 */
function rebuildInBackground(root, dir) {
  const lock = `${dir}.lock`;
  try {
    mkdirSync(dirname(dir), { recursive: true });
    try {
      mkdirSync(lock);
    } catch {
      if (Date.now() - statSync(lock).mtimeMs < LOCK_STALE_MS) return; // another start is building it
      rmSync(lock, { recursive: true, force: true });
      mkdirSync(lock);
    }
    // Loaded only here: a start that finds the bundle fresh (nearly every start) never needs it.
    const { spawn } = process.getBuiltinModule("node:child_process");
    const child = spawn(process.execPath, [join(root, "core/start/build-bundle.ts"), "--quiet", `--out=${dir}`, `--release-lock=${lock}`], { cwd: root, detached: true, stdio: "ignore" });
    child.on("error", () => rmSync(lock, { recursive: true, force: true }));
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, 15);
      } catch {
        // Not allowed to lower it: it still runs.
      }
    }
    child.unref();
  } catch {
    // A read-only checkout or no node_modules: the sources still run.
  }
}
