// @ts-check
// Entry point of the `muster` command (`npm start` runs `node core/entry.js start`).
// Plain JavaScript on purpose: the first TypeScript file a process loads costs it Node's
// type stripper (~100 ms on a quiet machine); from here the start-up bundle needs none.
//
// It turns on Node's on-disk compile cache before the rest of the program is imported, so
// V8 reuses the bytecode of what Muster loads from the second start on, and picks what to
// run (core/start/): the start-up bundle when it matches the sources, else the sources.
//
// From the sources it resolves the repository's own workspace packages (`@muster/plugin`)
// to their TypeScript sources (the `source` export condition, as `--conditions=source`
// would): their published entry is a dist/ build that a checkout does not have. Only
// `@muster/*` specifiers get the condition, so no third-party package's `source` export is
// picked. Under the bundle, `@muster/plugin` is the bundle's own copy, so a third-party
// plugin and the host share one set of tokens and error classes.
// The version guard first, and node:module as a namespace: on an old Node a named import of a
// hook it lacks would fail while linking, before the guard could say "use Node 24".
import "./node-version-guard.js";
import * as nodeModule from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chooseEntry } from "./start/choose-entry.js";

// A process with a loader (`--import tsx`, as some benches start the server) or source maps
// compiles other code for the same files, and V8 rejects an entry whose source differs:
// sharing one cache, each such start would evict the bytecode that the next `npm start`
// then compiles afresh. It gets a cache of its own.
const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
const otherCode = flags.some((flag) => /^(--import|--loader|--experimental-loader|--require|-r|--enable-source-maps|--experimental-transform-types)\b/.test(flag));
nodeModule.enableCompileCache(otherCode ? join(tmpdir(), "node-compile-cache-transformed") : undefined);

const entry = chooseEntry(new URL("..", import.meta.url).pathname, process.env);
// For the "muster started" log line: which code this process runs.
Object.defineProperty(globalThis, Symbol.for("muster.startBundle"), { value: entry.bundled });
// The bundle's files import each other as "./chunk-….js": siblings, all ES modules. Node's
// own resolution would stat each one and read the package.json scope above it to learn its
// format (~50 ms of a start in a profile, for ~100 files); the hook answers at once.
const bundleBase = entry.bundled ? new URL(".", entry.cli).href : null;
nodeModule.registerHooks({
  resolve: (specifier, context, nextResolve) => {
    if (bundleBase !== null && specifier.startsWith("./") && context.parentURL?.startsWith(bundleBase)) {
      return { url: bundleBase + specifier.slice(2), format: "module", shortCircuit: true };
    }
    if (entry.pluginApi && specifier === "@muster/plugin") return { url: entry.pluginApi, shortCircuit: true };
    return specifier.startsWith("@muster/") && !context.conditions.includes("source")
      ? nextResolve(specifier, { ...context, conditions: [...context.conditions, "source"] })
      : nextResolve(specifier, context);
  },
});
await import(entry.cli);
