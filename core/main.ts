// Entry point of the `muster` command. It only turns on Node's on-disk compile cache
// before the rest of the program is imported: V8 then reuses the bytecode of the ~1,000
// modules Muster loads (MikroORM alone is half of them), which cuts cold start
// noticeably from the second start on. Everything else lives in cli.ts.
import { enableCompileCache } from "node:module";

enableCompileCache();
await import("./cli.ts");
