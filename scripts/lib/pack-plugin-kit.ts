// `npm pack` of the plugin kit (@muster/plugin, core/plugin-api): its prepack builds dist/
// (JavaScript + .d.ts). The kit is not on the npm registry, so a plugin built outside this
// repository gets it as this tarball (new-plugin --standalone puts one in the scaffold).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;
/** npm and the scripts it runs use this Node, not whatever `node` is first on PATH. */
export const NODE_FIRST_ENV = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` };

/** `npm pack <dir>` into `into`; returns the tarball's path. */
export function npmPack(dir: string, into: string, ...flags: string[]): string {
  const out = execFileSync("npm", ["pack", dir, "--pack-destination", into, "--silent", ...flags], { encoding: "utf8", env: NODE_FIRST_ENV });
  return join(into, out.trim().split("\n").pop()!);
}

/** Packs @muster/plugin into `into` (e.g. `muster-plugin-1.0.0.tgz`) and returns the tarball's path. */
export function packPluginKit(into: string): string {
  // Packed from a copy: prepack's `rm -rf dist && tsc` must not race another pack of the checkout.
  const work = mkdtempSync(join(tmpdir(), "muster-plugin-kit-"));
  try {
    const source = join(work, "plugin-api");
    cpSync(join(ROOT, "core/plugin-api"), source, { recursive: true, filter: (src) => !/\/(dist|node_modules)$/.test(src) });
    symlinkSync(join(ROOT, "node_modules"), join(source, "node_modules"));
    mkdirSync(into, { recursive: true });
    return npmPack(source, into);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
