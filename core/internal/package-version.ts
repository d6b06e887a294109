// Muster's version, from the root package.json (what `muster --version` and /api/health say).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "./plugin-loader.ts";

export const packageVersion = (JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { version: string }).version;
