// A third-party plugin package as its author builds it outside this repository: @muster/plugin
// from its packed tarball (its prepack builds dist/: JavaScript + .d.ts), the package's other
// build dependencies (typescript, zod, MikroORM) linked from this repository's node_modules
// (the same versions npm would install), then `tsc` and `npm pack`.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";

export const ROOT = new URL("../..", import.meta.url).pathname;
/** npm and the scripts it runs use this Node, not whatever `node` is first on PATH. */
export const NODE_ENV = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` };

/** `npm pack <dir>` into `into`; returns the tarball's path. */
export function npmPack(dir: string, into: string, ...flags: string[]): string {
  const out = execFileSync("npm", ["pack", dir, "--pack-destination", into, "--silent", ...flags], { encoding: "utf8", env: NODE_ENV });
  return join(into, out.trim().split("\n").pop()!);
}

/** Gives `project` a node_modules with the packed @muster/plugin (packed once per `work` dir) and the rest linked. */
export function installPluginKit(project: string, work: string): void {
  const kit = join(work, "muster-plugin-kit");
  if (!existsSync(kit)) {
    // Packed from a copy: prepack's `rm -rf dist && tsc` must not race another test (or person) packing the checkout.
    const source = join(work, "kit-source");
    cpSync(join(ROOT, "core/plugin-api"), source, { recursive: true, filter: (src) => !/\/(dist|node_modules)$/.test(src) });
    symlinkSync(join(ROOT, "node_modules"), join(source, "node_modules"));
    const unpacked = join(work, "kit-unpacked");
    mkdirSync(unpacked, { recursive: true });
    execFileSync("tar", ["-xzf", npmPack(source, work), "-C", unpacked]);
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
