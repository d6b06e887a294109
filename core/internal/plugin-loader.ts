// Finds third-party plugin packages (npm packages with `"muster": { "plugin": true }`)
// in `$MUSTER_HOME/node_modules` or the project's own `node_modules`, and imports them.
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { PluginDefinition } from "../plugin-api/define-plugin.ts";
import { startErrors } from "./start-errors.ts";

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

export interface LoadedPlugin {
  definition: PluginDefinition;
  source: string;
}

function findPackageDir(name: string, home: string): string | null {
  for (const base of [home, PROJECT_ROOT, process.cwd()]) {
    const dir = join(base, "node_modules", name);
    if (existsSync(join(dir, "package.json"))) return dir;
  }
  return null;
}

function entryOf(pkg: Record<string, any>): string {
  const exp = pkg.exports;
  const pick = (e: any): string | undefined => (typeof e === "string" ? e : e?.import ?? e?.default);
  return (exp ? pick(typeof exp === "string" || exp.import || exp.default ? exp : exp["."]) : undefined) ?? pkg.module ?? pkg.main ?? "index.js";
}

/** This host's own plugin kit, the `@muster/plugin` every plugin must share (one module instance). */
export const PLUGIN_KIT_DIR = join(PROJECT_ROOT, "core", "plugin-api");

/**
 * Lets packages installed under `$MUSTER_HOME` resolve their `@muster/plugin` peer
 * dependency to this host's instance (so `instanceof MusterError` and service tokens are
 * shared), as if Muster were installed beside them. Replaces whatever else is there (a
 * copy from the registry, a link to another checkout): a second instance would break both.
 */
function linkPluginKit(home: string): void {
  const link = join(home, "node_modules", "@muster", "plugin");
  const linked = () => {
    try {
      return realpathSync(link) === realpathSync(PLUGIN_KIT_DIR);
    } catch {
      return false; // missing, or a dangling link
    }
  };
  if (linked()) return;
  rmSync(link, { recursive: true, force: true });
  mkdirSync(dirname(link), { recursive: true });
  try {
    symlinkSync(PLUGIN_KIT_DIR, link, "dir");
  } catch (error) {
    if (!linked()) throw error; // EEXIST from a concurrent `muster` on the same home is fine
  }
}

export async function loadThirdPartyPlugin(name: string, home: string): Promise<LoadedPlugin> {
  if (!NAME.test(name)) throw startErrors.PLUGIN_INVALID({ plugin: JSON.stringify(name), reason: "it is not an npm package name" });
  const dir = findPackageDir(name, home);
  if (!dir) {
    throw startErrors.PLUGIN_INVALID({
      plugin: `Package "${name}"`,
      reason: `it is not installed (looked in ${join(home, "node_modules")} and the project's node_modules); run: muster plugins add ${name}`,
    });
  }
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, any>;
  if (pkg.muster?.plugin !== true) {
    throw startErrors.PLUGIN_INVALID({ plugin: `Package "${name}"`, reason: 'it is not a Muster plugin (its package.json lacks "muster": { "plugin": true })' });
  }
  if (dir.startsWith(home)) linkPluginKit(home);
  const mod = (await import(pathToFileURL(join(dir, entryOf(pkg))).href)) as { default?: PluginDefinition };
  if (!mod.default || typeof mod.default !== "object") {
    throw startErrors.PLUGIN_INVALID({ plugin: `Package "${name}"`, reason: "it has no default export with a plugin definition" });
  }
  return { definition: mod.default, source: `npm:${name}@${pkg.version ?? "?"}` };
}

/**
 * The plugins a host of this configuration loads, as the command line needs them (`muster
 * --help`, `muster mcp`, `muster doctor`): the built-ins less disabled ones, then the
 * configured packages. `onMissing: "skip"` leaves out a package that does not load (help
 * still answers; `muster plugins` and `muster start` say why); `"throw"` refuses as the host would.
 */
export async function configuredPlugins(
  builtIns: readonly PluginDefinition[],
  config: { home: string; plugins: readonly string[]; disabledPlugins: readonly string[] },
  onMissing: "skip" | "throw",
): Promise<PluginDefinition[]> {
  const plugins = builtIns.filter((p) => !config.disabledPlugins.includes(p.id));
  for (const name of config.plugins) {
    try {
      plugins.push((await loadThirdPartyPlugin(name, config.home)).definition);
    } catch (error) {
      if (onMissing === "throw") throw error;
    }
  }
  return plugins;
}
