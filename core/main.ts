// Entry point of the `muster` command. It only turns on Node's on-disk compile cache
// before the rest of the program is imported: V8 then reuses the bytecode of the ~1,000
// modules Muster loads (MikroORM alone is half of them), which cuts cold start
// noticeably from the second start on. Everything else lives in cli.ts.
//
// It also resolves the repository's own workspace packages (`@muster/plugin`) to their
// TypeScript sources (the `source` export condition, as `--conditions=source` would):
// their published entry is a dist/ build that a checkout does not have. Only `@muster/*`
// specifiers get the condition, so no third-party package's `source` export is picked.
// The version guard first, and node:module as a namespace: on an old Node a named import of a
// hook it lacks would fail while linking, before the guard could say "use Node 24".
import "./node-version-guard.ts";
import * as nodeModule from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

// A process with a loader (`--import tsx`, as some benches start the server) or source maps
// compiles other code for the same files, and V8 rejects an entry whose source differs:
// sharing one cache, each such start would evict the bytecode of ~530 modules that the next
// `npm start` then compiles afresh. It gets a cache of its own.
const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
const otherCode = flags.some((flag) => /^(--import|--loader|--experimental-loader|--require|-r|--enable-source-maps|--experimental-transform-types)\b/.test(flag));
nodeModule.enableCompileCache(otherCode ? join(tmpdir(), "node-compile-cache-transformed") : undefined);
nodeModule.registerHooks({
  resolve: (specifier, context, nextResolve) =>
    specifier.startsWith("@muster/") && !context.conditions.includes("source")
      ? nextResolve(specifier, { ...context, conditions: [...context.conditions, "source"] })
      : nextResolve(specifier, context),
});
await import("./cli.ts");
