// Builds the start-up bundle: Muster's sources and their packages in a few files
// (esbuild, code splitting), so `muster start` loads ~30 files instead of ~1,400 modules
// and strips no types (docs/benchmarks.md: module loading was most of the cold start).
// Run by `npm install` (postinstall) and, in the background, by a start that found the
// bundle stale; `node core/start/build-bundle.ts` by hand. It never changes what runs: a
// stale or missing bundle means the start runs from the sources as before.
//
// What a bundle would otherwise get wrong, and how it is kept right:
// - `import.meta.url`, `__dirname` and `__filename` name each source file (templates,
//   migrations, workers and static files are found next to it): replaced per file with
//   that file's own location before bundling.
// - A third-party plugin imports `@muster/plugin` at run time: `core/plugin-api` is a second
//   entry, and the start resolves `@muster/plugin` to it, so plugins and host share one
//   copy of its tokens and error classes.
// - Native `better-sqlite3` stays a package loaded from node_modules.
// - Node's built-in modules are taken with require(), not import: an ES module import of a
//   built-in builds a facade that reads every export, and `node:http`'s lazy `WebSocket`
//   getter then loads all of undici (a tenth of the start in a profile) for nothing.
// - npm nests a second copy of a package of the same version under each dependant that
//   could not share the top one (koa's and type-is' mime-types 3.0.2 and mime-db 1.54.0):
//   the bundle takes one copy per name and version, so it is evaluated once (each mime-db
//   copy is a 200 kB table that mime-types indexes when it loads).
import { builtinModules, createRequire } from "node:module";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { BUNDLE_DIR, BUNDLE_LAYOUT, fingerprint, MANIFEST_FILE, type BundleManifest } from "./bundle-manifest.js";

const DEDUPED = Symbol("resolved without the one-copy rule");
const root = resolve(dirname(new URL(import.meta.url).pathname), "../..");
const requireFromRoot = createRequire(join(root, "package.json"));
const SOURCE = /\.(ts|mts|js|mjs|cjs)$/;
/** zod's modules that re-export every locale (see the zod-locales namespace below). */
const ZOD_LOCALES_IMPORTER = /\/node_modules\/zod\/v4\/(core\/index|classic\/external|mini\/external)\.js$/;
/** From this size a bundled JSON file is parsed with JSON.parse at load (see the onLoad). */
const LARGE_JSON_BYTES = 16 * 1024;
/** The package a bare specifier or a path below node_modules/ names (`@scope/name` or `name`). */
function packageName(specifier: string): string {
  const [first, second] = specifier.split("/");
  return first!.startsWith("@") ? `${first}/${second}` : first!;
}

/** A package's own directory in node_modules and its name, from a file inside it. */
function packageOf(path: string): { dir: string; name: string } | null {
  const at = path.lastIndexOf("/node_modules/");
  if (at < 0) return null;
  const name = packageName(path.slice(at + 14));
  return { dir: path.slice(0, at + 14) + name, name };
}

/** The version in a package's package.json, read once per directory. */
const versions = new Map<string, string | null>();
function versionOf(dir: string): string | null {
  if (!versions.has(dir)) {
    try {
      versions.set(dir, (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: string }).version ?? null);
    } catch {
      versions.set(dir, null);
    }
  }
  return versions.get(dir)!;
}

/** Names of the packages that npm installed more than once (a copy nested under a dependant). */
function nestedPackageNames(): Set<string> {
  const names = new Set<string>();
  const packagesIn = (modules: string): string[] =>
    readdirSafe(modules).flatMap((entry) => (entry.startsWith("@") ? readdirSafe(join(modules, entry)).map((name) => `${entry}/${name}`) : entry.startsWith(".") ? [] : [entry]));
  const walk = (modules: string, nested: boolean): void => {
    for (const name of packagesIn(modules)) {
      if (nested) names.add(name);
      walk(join(modules, name, "node_modules"), true);
    }
  };
  walk(join(root, "node_modules"), false);
  return names;
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

const BUILTIN = new RegExp(`^(node:)?(${builtinModules.map((m) => m.replace(/[/]/g, "\\/")).join("|")})$`);

/**
 * Built-ins that a start does not need before it serves (TLS and HTTPS for outgoing calls,
 * child processes for the terminal, zlib for WebSocket compression, worker threads for the
 * log transport...). A module that imports one evaluates its shim when it loads, so the shim
 * loads the real module only on the first use of one of its exports: the same properties,
 * as getters (and setters: `https.globalAgent = ...` still reaches the module). Only modules
 * whose export is a plain object: `events`, `assert` or `stream` export a function, which a
 * getter object cannot stand for. The names are this Node's (a bundle is rebuilt for another).
 */
const LAZY_BUILTINS = new Set(["child_process", "dgram", "dns", "http2", "https", "inspector", "perf_hooks", "readline", "tls", "tty", "v8", "vm", "worker_threads", "zlib"]);

/**
 * Built-ins an ES module imports as they are (`import { join } from "node:path"`), not through
 * a shim. Only ones already loaded before Node runs the bundle and without getters among their
 * exports: Node's ES module facade of a built-in reads every export once, so a getter would run
 * (`node:http`'s `WebSocket` loads undici; `node:crypto`'s `webcrypto` costs 20-100 ms).
 */
const ESM_IMPORTED_BUILTINS = new Set(["node:path", "node:url", "node:os", "node:fs/promises", "node:timers/promises"]);

/**
 * Built-ins with getters among their exports that Muster's own modules import through an ES
 * module shim of their plain exports (`builtinModuleShim`), so that ~100 importers share one
 * set of bindings. Packages keep the CommonJS shim: some read a getter through a namespace
 * import (`@noble/hashes`: `nc.webcrypto`).
 */
const ESM_SHIMMED_BUILTINS = new Set(["node:fs", "node:crypto"]);

/**
 * An ES module standing for a built-in: its default export is the module itself, and each of
 * its plain (non-getter) exports is a named export. A getter (`fs.promises`, `crypto.webcrypto`)
 * is reached through the default export only: a named import of one fails the build
 * ("No matching export"), and a namespace's read of one too (`import-is-undefined` is an error).
 */
export function builtinModuleShim(path: string): string {
  const real = requireFromRoot(path) as object;
  const plain = Object.getOwnPropertyNames(real).filter((key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== "default" && "value" in Object.getOwnPropertyDescriptor(real, key)!);
  return [`const m = require(${JSON.stringify(path)});`, "export default m;", `export const { ${plain.join(", ")} } = m;`].join("\n");
}

/** The module a `builtin`-namespace path stands for: the real built-in, loaded now or on first use. */
export function builtinShim(path: string): string {
  const name = path.replace(/^node:/, "");
  const load = `require(${JSON.stringify(path)})`;
  if (!LAZY_BUILTINS.has(name)) return `module.exports = ${load};`;
  const real = requireFromRoot(path) as object;
  // Every own name, enumerable or not as on the module (zlib's legacy Z_* constants are not).
  const keys = Object.getOwnPropertyNames(real).map((key) => [key, Object.getOwnPropertyDescriptor(real, key)!.enumerable === true]);
  return [
    "var loaded;",
    `function load() { return loaded ??= ${load}; }`,
    `for (const [key, enumerable] of ${JSON.stringify(keys)}) Object.defineProperty(module.exports, key, { get: () => load()[key], set: (value) => { load()[key] = value; }, enumerable });`,
  ].join("\n");
}

/** Each file's own location where it asks for it, so the bundle finds what sits beside the source. */
function ownLocation(path: string, text: string): string {
  let out = text;
  if (out.includes("import.meta.")) {
    out = out
      .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(path).href))
      .replaceAll("import.meta.dirname", JSON.stringify(dirname(path)))
      .replaceAll("import.meta.filename", JSON.stringify(path));
  }
  if (/\b__(dirname|filename)\b/.test(out)) out = `var __dirname = ${JSON.stringify(dirname(path))}, __filename = ${JSON.stringify(path)};\n${out}`;
  return out;
}

/**
 * Rewrites a chunk's non-ASCII characters as `\uXXXX` escapes. esbuild already escapes them
 * in code (its `charset: "ascii"` default) but keeps the comments it carries over as they
 * are (`§`, `—` in a few JSDoc lines), and one such character makes Node decode the whole
 * file through UTF-8's slow path and V8 hold and scan it as a two-byte string (decodeUTF8
 * was the largest self-time of the module phase in a profile). In a comment the escape is
 * inert; in a string, regular expression or identifier it means the same character.
 */
function asciiOnly(path: string): void {
  const text = readFileSync(path, "utf8");
  // Code units, not code points: a character beyond U+FFFF becomes its two surrogate escapes.
  const ascii = text.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (ascii !== text) writeFileSync(path, ascii);
}

export async function buildStartBundle(dir = join(root, BUNDLE_DIR)): Promise<{ dir: string; inputs: number; ms: number }> {
  const started = Date.now();
  const { build } = await import("esbuild");
  // Built beside the final place and renamed into it: a start never sees half a bundle.
  const temp = `${dir}.building-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  // Fingerprints taken when each file is read: a file edited during the build is stale at once.
  const readAt = new Map<string, [number, number] | null>();
  const result = await build({
    entryPoints: { cli: join(root, "core/cli.ts"), "plugin-api": join(root, "core/plugin-api/index.ts") },
    outdir: temp,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node24",
    alias: { "@muster/plugin": join(root, "core/plugin-api/index.ts"), "@muster/sdk": join(root, "sdk/src/index.ts") },
    // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __musterRequire } from 'node:module'; const require = __musterRequire(import.meta.url);" },
    metafile: true,
    // Whitespace and comments only (names and syntax kept, so stack traces still name each
    // function): ~40% fewer bytes for a start to read, decode, hash for the compile cache and
    // pre-parse.
    minifyWhitespace: true,
    logLevel: "error",
    // A namespace's read of an export a module lacks is an error, not a warning: with the
    // built-ins' ES module shims, such a read would otherwise be `undefined` at run time.
    logOverride: { "import-is-undefined": "error" },
    legalComments: "none",
    plugins: [
      {
        name: "own-location",
        setup(b) {
          // Native, so loaded from node_modules; by its absolute path, as the bundle may live elsewhere.
          b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: requireFromRoot.resolve("better-sqlite3"), external: true }));
          // Finds its own binary beside its package, so it cannot be bundled (the console strips types with it).
          b.onResolve({ filter: /^esbuild$/ }, () => ({ path: requireFromRoot.resolve("esbuild"), external: true }));
          b.onResolve({ filter: BUILTIN }, (args) => {
            const path = args.path.startsWith("node:") ? args.path : `node:${args.path}`;
            // The shim's own require() is the real built-in.
            if (args.namespace === "builtin" || args.namespace === "builtin-esm") return { path, external: true };
            // An ES module's import of a built-in that has no getters stays an import: through
            // the shim, each importing module got its own copy of every export (esbuild's
            // `__toESM`: ~200 importers, ~16,000 getters defined, ~20 ms of a cold start).
            if (args.kind === "import-statement" && ESM_IMPORTED_BUILTINS.has(path)) return { path, external: true };
            if (args.kind === "import-statement" && ESM_SHIMMED_BUILTINS.has(path) && !args.importer.includes("/node_modules/")) return { path, namespace: "builtin-esm" };
            return { path, namespace: "builtin" };
          });
          // One copy per package name and version: a bare import that resolves into a second
          // directory of a package already taken is sent to the first one's file of the same path.
          // Only names installed more than once can meet a second copy (resolving every bare
          // import a second time made the build several times slower).
          const taken = new Map<string, string>();
          const nested = nestedPackageNames();
          b.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.pluginData === DEDUPED || !nested.has(packageName(args.path))) return undefined;
            const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, namespace: args.namespace, pluginData: DEDUPED });
            if (found.errors.length > 0) return undefined; // esbuild's own resolution reports it
            if (found.external || found.namespace !== "file") return found;
            const pkg = packageOf(found.path);
            const version = pkg && versionOf(pkg.dir);
            if (!pkg || !version) return found;
            const key = `${pkg.name}@${version}`;
            const first = taken.get(key) ?? (taken.set(key, pkg.dir), pkg.dir);
            return { ...found, path: first + found.path.slice(pkg.dir.length) };
          });
          // zod's namespaces re-export all of its ~50 translated error maps (`z.locales`,
          // `z.core.locales`): 300 kB of the start's code, kept whole because `z` is used as
          // an object. Muster's messages are English (the default, which zod imports on its
          // own), so the bundle's `locales` holds `en` only; a read of another one is a build
          // error (`import-is-undefined` below), never `undefined` at run time.
          b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
            ZOD_LOCALES_IMPORTER.test(args.importer) ? { path: join(args.resolveDir, "../locales/index.js"), namespace: "zod-locales" } : undefined,
          );
          b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({ contents: `export { default as en } from "./en.js";`, loader: "js", resolveDir: dirname(args.path) }));
          b.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => ({ contents: builtinShim(args.path), loader: "js" }));
          b.onLoad({ filter: /.*/, namespace: "builtin-esm" }, (args) => ({ contents: builtinModuleShim(args.path), loader: "js" }));
          // A large JSON table (mime-db's 200 kB, loaded by koa on every start) as a string
          // for JSON.parse: V8 parses JSON text faster than the same data as an object
          // literal, which is how esbuild's json loader would emit it. Read as CommonJS,
          // as Node's require() of a .json file gives it.
          b.onLoad({ filter: /\.json$/ }, (args) => {
            readAt.set(args.path, fingerprint(args.path));
            const text = readFileSync(args.path, "utf8");
            if (text.length < LARGE_JSON_BYTES) return undefined;
            return { contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(text)))});`, loader: "js" };
          });
          b.onLoad({ filter: SOURCE }, (args) => {
            readAt.set(args.path, fingerprint(args.path));
            return { contents: ownLocation(args.path, readFileSync(args.path, "utf8")), loader: /\.m?ts$/.test(args.path) ? "ts" : "js", resolveDir: dirname(args.path) };
          });
        },
      },
    ],
  });
  const inputs = Object.keys(result.metafile.inputs).map((p) => resolve(root, p));
  const manifest: BundleManifest = {
    node: process.version,
    layout: BUNDLE_LAYOUT,
    root,
    entries: { cli: "cli.js", pluginApi: "plugin-api.js" },
    inputs: inputs.flatMap((path) => {
      const now = readAt.has(path) ? readAt.get(path)! : fingerprint(path);
      return now ? [[path, now[0], now[1]] as [string, number, number]] : [];
    }),
  };
  for (const chunk of readdirSync(temp)) if (chunk.endsWith(".js")) asciiOnly(join(temp, chunk));
  writeFileSync(join(temp, MANIFEST_FILE), JSON.stringify(manifest));
  // The chunks are ES modules: said here, Node compiles each once; without it (no package
  // scope above node_modules/) it first tries each as CommonJS to detect the format.
  writeFileSync(join(temp, "package.json"), JSON.stringify({ type: "module" }));
  mkdirSync(dirname(dir), { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  renameSync(temp, dir);
  return { dir, inputs: inputs.length, ms: Date.now() - started };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const lock = option("release-lock");
  try {
    const out = option("out");
    const built = await buildStartBundle(out ? resolve(out) : undefined);
    if (!process.argv.includes("--quiet")) console.log(`muster: start-up bundle built from ${built.inputs} files in ${built.ms} ms (${built.dir})`);
  } catch (error) {
    // Never fails an install: without the bundle, `muster start` runs from the sources.
    console.log(`muster: start-up bundle not built (${(error as Error).message.split("\n")[0]}); muster start runs from the sources`);
  } finally {
    if (lock) rmSync(lock, { recursive: true, force: true });
  }
}
