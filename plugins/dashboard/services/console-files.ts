// Every file the console serves, fixed at start-up: the console's own directory, the vendored
// Preact and htm, the SDK's REST client, and the directories of the modules plugins contribute.
// A request names a key of this map, never a path, so nothing else on disk is reachable.
// TypeScript files are served as JavaScript with their types stripped (esbuild, on first
// request, then kept): the console is type-checked by tsc and runs without a build step.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleEntries } from "./console-bundles.ts";

const TYPES: Record<string, string> = {
  ".ts": "text/javascript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".html": "text/html; charset=utf-8",
};
const NAME = /^[a-z0-9][a-z0-9.-]*$/;

export interface ServedFile {
  type: string;
  /** The bytes to send (types stripped for `.ts`). */
  body(): Promise<Buffer>;
}

let strip: Promise<(code: string, file: string) => Promise<string>> | undefined;
/** esbuild's transform, loaded on the first TypeScript request (start-up never pays for it). */
function stripTypes(): Promise<(code: string, file: string) => Promise<string>> {
  strip ??= import("esbuild").then(({ transform }) => async (code: string, file: string) => {
    const result = await transform(code, { loader: "ts", format: "esm", target: "es2022", sourcefile: file, legalComments: "none" });
    return result.code;
  });
  return strip;
}

function served(path: string): ServedFile | undefined {
  const extension = extname(path);
  const type = TYPES[extension];
  if (!type) return undefined;
  let cached: Promise<Buffer> | undefined;
  return {
    type,
    body: () => {
      cached ??= extension === ".ts"
        ? stripTypes().then(async (run) => Buffer.from(await run(readFileSync(path, "utf8"), path)))
        : Promise.resolve(readFileSync(path));
      // A failed transform is not kept: the next request tries again.
      cached.catch(() => (cached = undefined));
      return cached;
    },
  };
}

/** Adds every servable file under `dir` (recursively, at most `depth` levels) as `<prefix><relative path>`. */
export function addDirectory(files: Map<string, ServedFile>, prefix: string, dir: string, depth = 2, skip: (name: string) => boolean = () => false): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!NAME.test(entry.name) || skip(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (depth > 1) addDirectory(files, `${prefix}${entry.name}/`, full, depth - 1, skip);
      continue;
    }
    if (entry.name.endsWith(".d.ts") || entry.name.endsWith(".test.ts")) continue;
    const file = entry.isFile() ? served(full) : undefined;
    if (file) files.set(`${prefix}${entry.name}`, file);
  }
}

/** The ES module builds of the console's libraries (`.mjs` beside each package's CommonJS entry), as the import map names them. */
const VENDOR: Record<string, string> = {
  "preact.js": "preact",
  "preact-hooks.js": "preact/hooks",
  "htm.js": "htm",
};
// Resolved from this file's place (the start bundle keeps each source's import.meta.url), not
// from wherever the running module is: the bundle may live outside the checkout.
const requireHere = createRequire(import.meta.url);
const esmBuild = (name: string) => requireHere.resolve(name).replace(/\.c?js$/, ".mjs");

/** The console's own files, its libraries and the SDK client. */
export function consoleFiles(consoleDir: string): Map<string, ServedFile> {
  const files = new Map<string, ServedFile>();
  addDirectory(files, "", consoleDir);
  // The shell and the kit as one build (console-bundles.ts): two modules and their shared chunk.
  bundleEntries(files, "", consoleDir, ["main.ts", "kit.ts"]);
  for (const [name, module] of Object.entries(VENDOR)) files.set(`vendor/${name}`, served(esmBuild(module))!);
  const sdk = sdkRestDir();
  if (sdk) {
    addDirectory(files, "sdk/", sdk, 2, (name) => name === "agent-actions.ts" || name === "index.ts");
    bundleEntries(files, "sdk/", sdk, ["core.ts"]);
  }
  return files;
}

/** The SDK's REST client sources (`sdk/src/rest/`), beside this checkout or installed. */
function sdkRestDir(): string | undefined {
  const beside = fileURLToPath(new URL("../../../sdk/src/rest/", import.meta.url));
  return existsSync(join(beside, "core.ts")) ? beside : undefined;
}
