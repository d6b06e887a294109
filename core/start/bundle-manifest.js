// @ts-check
// The start-up bundle's manifest: which files it was built from, with their size and
// modification time, so a start can tell in a few milliseconds whether the bundle still
// matches the sources (an edit, a `git pull` or an `npm install` makes it stale).
// Plain JavaScript, as everything `muster` loads before the bundle: the first TypeScript
// file a process loads costs it Node's type stripper (~100 ms, more on a loaded machine).
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/** Where `npm install` (postinstall) and a stale start write the bundle: wiped by every `npm ci`. */
export const BUNDLE_DIR = "node_modules/.cache/muster-start";
export const MANIFEST_FILE = "manifest.json";
/**
 * What a bundle directory holds besides the code, by version: a bundle of an older layout is
 * stale whatever its inputs say. 2: a package.json of `"type": "module"`, without which Node
 * (no package scope above node_modules/) parsed every chunk a second time to detect its
 * format (detectModuleFormat, ~6% of a cold start in a profile). 3: built-ins a start does
 * not need (https, tls, zlib...) are loaded on first use, and every chunk is ASCII, so Node
 * decodes it on UTF-8's fast path (build-bundle.ts). 4: whitespace and comments minified;
 * built-ins imported as ES modules where that copies nothing per importer. 5: zod's locales
 * other than English left out; MikroORM's SQL modules in a chunk loaded after listening.
 */
export const BUNDLE_LAYOUT = 5;

/**
 * The fingerprint of one input now, or null when it is gone.
 * @param {string} path
 * @returns {[number, number] | null}
 */
export function fingerprint(path) {
  try {
    const stat = statSync(path);
    return [stat.size, stat.mtimeMs];
  } catch {
    return null;
  }
}

/**
 * The manifest of the bundle in `dir` when it matches the sources and this Node, or null
 * (no bundle, a different runtime, or any input changed or removed). A new file that no
 * input imports cannot change what the bundle does, so only inputs count. With `root`, a
 * bundle built from another checkout is stale too: a checkout copied with its node_modules
 * (a git worktree, a copied install) would otherwise run the other checkout's code for as
 * long as that one's files stay unchanged, whatever is edited here.
 * @param {string} dir
 * @param {string} [root] the checkout that runs it
 * @returns {{ dir: string; manifest: import("./bundle-manifest.d.ts").BundleManifest } | null}
 */
export function freshBundle(dir, root) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8"));
  } catch {
    return null;
  }
  if (manifest.node !== process.version || manifest.layout !== BUNDLE_LAYOUT || !Array.isArray(manifest.inputs)) return null;
  if (root !== undefined && manifest.root !== resolve(root)) return null;
  for (const [path, size, mtimeMs] of manifest.inputs) {
    const now = fingerprint(path);
    if (!now || now[0] !== size || now[1] !== mtimeMs) return null;
  }
  return { dir, manifest };
}
