// Fewer, larger modules: a cold browser fetching ~40 small modules from a loaded server spent
// seconds on the requests alone (docs/benchmarks.md, console). A group of entry modules in one
// directory is built on first request with esbuild (bundle, esm, in memory, then kept), each
// entry's relative imports inlined, and replaces those entries' served files at the same URLs:
// - the console's shell (main.ts) and the kit (kit.ts) form ONE build with code splitting, so
//   what both import (router, live connection, session) lands once, in a shared chunk both
//   import: the kit stays its own module (`@muster/console`), one instance for shell and pages;
// - each plugin's contributed `.ts` modules (its pages and panels) form one build per plugin,
//   so two of its pages sharing a sibling file share one instance of it too.
// Bare specifiers (preact, htm, @muster/console, @muster/sdk/client) stay imports, resolved by
// the page's import map to one instance each. The chunks' names come from the build of files
// fixed at start-up: still nothing else on disk is reachable. Other files keep their per-file
// URLs (types stripped), for anything that imports them directly.
import { basename, join } from "node:path";
import type { ServedFile } from "./console-files.ts";

const JS = "text/javascript; charset=utf-8";
/** What the import map resolves: kept as imports so each has one instance in the page. */
const EXTERNAL = ["preact", "preact/hooks", "htm", "@muster/console", "@muster/sdk/client"];
// The output directory is nominal (write: false); outputs are named relative to it.
const OUT = "/muster-console-bundle";

type Build = (entries: string[]) => Promise<Map<string, Buffer>>;
let esbuild: Promise<Build> | undefined;
/** esbuild's build, loaded on the first bundle request (start-up never pays for it). */
function loadBuild(): Promise<Build> {
  esbuild ??= import("esbuild").then(({ build }) => async (entries: string[]) => {
    const result = await build({
      entryPoints: entries,
      bundle: true,
      splitting: true,
      format: "esm",
      target: "es2022",
      write: false,
      outdir: OUT,
      entryNames: "[name]",
      chunkNames: "shared-[hash]",
      // Outputs keep the `.ts` names the browser already asks for (served as JavaScript).
      outExtension: { ".js": ".ts" },
      external: EXTERNAL,
      legalComments: "none",
      logLevel: "silent",
    });
    return renameChunks(new Map(result.outputFiles.map((file) => [basename(file.path), Buffer.from(file.contents)])));
  });
  return esbuild;
}

/** esbuild's chunk hashes are upper case; served names are lower case (the routes' file-name rule). */
function renameChunks(outputs: Map<string, Buffer>): Map<string, Buffer> {
  const chunks = [...outputs.keys()].filter((name) => name.startsWith("shared-"));
  if (!chunks.length) return outputs;
  const renamed = new Map<string, Buffer>();
  for (const [name, body] of outputs) {
    let text = body.toString("utf8");
    for (const chunk of chunks) text = text.replaceAll(`./${chunk}`, `./${chunk.toLowerCase()}`);
    renamed.set(name.toLowerCase(), Buffer.from(text));
  }
  return renamed;
}

/**
 * Serves `entries` (file names in `dir`, served under `prefix`) as one build's outputs: each
 * entry's key gets its bundle, and the build's shared chunks are added to `files` once built.
 */
export function bundleEntries(files: Map<string, ServedFile>, prefix: string, dir: string, entries: readonly string[]): void {
  if (!entries.length) return;
  let built: Promise<Map<string, Buffer>> | undefined;
  const build = () => {
    built ??= loadBuild()
      .then((run) => run(entries.map((entry) => join(dir, entry))))
      .then((outputs) => {
        for (const [name, body] of outputs) {
          if (name.startsWith("shared-")) files.set(`${prefix}${name}`, { type: JS, body: () => Promise.resolve(body) });
        }
        return outputs;
      });
    // A failed build is not kept: the next request tries again.
    built.catch(() => (built = undefined));
    return built;
  };
  for (const entry of entries) {
    files.set(`${prefix}${entry}`, {
      type: JS,
      body: async () => {
        const body = (await build()).get(entry);
        if (!body) throw new Error(`the build of ${dir} has no output for ${entry}`);
        return body;
      },
    });
  }
}
