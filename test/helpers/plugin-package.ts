// A third-party plugin package as its author builds it outside this repository: @muster/plugin
// from its packed tarball (its prepack builds dist/: JavaScript + .d.ts), the package's other
// build dependencies (typescript, zod, MikroORM) linked from this repository's node_modules
// (the same versions npm would install), then `tsc` and `npm pack`.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { NODE_FIRST_ENV, npmPack, packPluginKit } from "../../scripts/lib/pack-plugin-kit.ts";

export { npmPack };
export const ROOT = new URL("../..", import.meta.url).pathname;
/** npm and the scripts it runs use this Node, not whatever `node` is first on PATH. */
export const NODE_ENV = NODE_FIRST_ENV;

/** Gives `project` a node_modules with the packed @muster/plugin (packed once per `work` dir) and the rest linked. */
export function installPluginKit(project: string, work: string): void {
  const kit = join(work, "muster-plugin-kit");
  if (!existsSync(kit)) {
    const unpacked = join(work, "kit-unpacked");
    mkdirSync(unpacked, { recursive: true });
    execFileSync("tar", ["-xzf", packPluginKit(work), "-C", unpacked]);
    renameSync(join(unpacked, "package"), kit);
  }
  const modules = join(project, "node_modules");
  mkdirSync(join(modules, "@muster"), { recursive: true });
  for (const name of readdirSync(join(ROOT, "node_modules"))) {
    if (name !== "@muster" && name !== ".bin") symlinkSync(join(ROOT, "node_modules", name), join(modules, name));
  }
  // A real copy, not a link: TypeScript and Node resolve a package's own imports (zod, MikroORM) from where it really is.
  cpSync(kit, join(modules, "@muster/plugin"), { recursive: true });
}

/** Runs the package's tsc build (its tsconfig.json); returns tsc's status and output. */
export function buildPlugin(project: string): { status: number | null; output: string } {
  const build = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: project, encoding: "utf8", env: NODE_ENV });
  return { status: build.status, output: build.stdout + build.stderr };
}

/** `muster plugins add <spec>` with MUSTER_HOME=home, as a user runs it. */
export function musterPluginsAdd(spec: string, home: string) {
  return spawnSync(process.execPath, [join(ROOT, "core/main.ts"), "plugins", "add", spec], {
    env: { ...NODE_ENV, MUSTER_HOME: home, LOG_LEVEL: "silent" },
    encoding: "utf8",
    timeout: 60_000,
  });
}
