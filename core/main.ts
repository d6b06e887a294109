// Entry point of the `muster` command. It only turns on Node's on-disk compile cache
// before the rest of the program is imported: V8 then reuses the bytecode of the ~1,000
// modules Muster loads (MikroORM alone is half of them), which cuts cold start
// noticeably from the second start on. Everything else lives in cli.ts.
//
// It also resolves the repository's own workspace packages (`@muster/plugin`) to their
// TypeScript sources (the `source` export condition, as `--conditions=source` would):
// their published entry is a dist/ build that a checkout does not have. Only `@muster/*`
// specifiers get the condition, so no third-party package's `source` export is picked.
import { enableCompileCache, registerHooks } from "node:module";

enableCompileCache();
registerHooks({
  resolve: (specifier, context, nextResolve) =>
    specifier.startsWith("@muster/") && !context.conditions.includes("source")
      ? nextResolve(specifier, { ...context, conditions: [...context.conditions, "source"] })
      : nextResolve(specifier, context),
});
await import("./cli.ts");
