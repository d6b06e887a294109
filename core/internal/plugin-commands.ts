// `muster plugins`, `muster plugins add` and `muster plugins remove`: what would load and
// why not; installing and removing packages.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PLUGIN_API_VERSION } from "../plugin-api/index.ts";
import type { PluginDefinition } from "../plugin-api/define-plugin.ts";
import { loadConfig } from "./config.ts";
import { loadThirdPartyPlugin } from "./plugin-loader.ts";
import { orderPlugins } from "./plugin-graph.ts";
import { isStartError } from "./start-errors.ts";
import { HOST_PATHS } from "./host-routes.ts";
import { cliErrors } from "./cli/cli-errors.ts";

interface Row { id: string; version: string; source: string; status: string }

/** `muster plugins`: the given built-ins and the configured packages, and whether the host would load them. */
export async function listPlugins(builtInPlugins: readonly PluginDefinition[]): Promise<number> {
  const config = loadConfig();
  const rows: Row[] = [];
  const candidates: { definition: PluginDefinition; source: string }[] = [];
  for (const p of builtInPlugins) {
    if (config.disabledPlugins.includes(p.id)) rows.push({ id: p.id, version: p.version, source: "built-in", status: "disabled in muster.config.json" });
    else candidates.push({ definition: p, source: "built-in" });
  }
  for (const name of config.plugins) {
    try {
      candidates.push(await loadThirdPartyPlugin(name, config.home));
    } catch (error) {
      rows.push({ id: name, version: "-", source: `npm:${name}`, status: `not loaded: ${(error as Error).message}` });
    }
  }
  let problem = "";
  try {
    orderPlugins(candidates.map((c) => c.definition), PLUGIN_API_VERSION, HOST_PATHS);
  } catch (error) {
    problem = isStartError(error) ? `${error.code}: ${error.message}` : String(error);
  }
  rows.unshift(...candidates.map((c) => ({ id: c.definition.id, version: c.definition.version, source: c.source, status: problem ? "blocked (see below)" : "loads" })));
  const width = Math.max(...rows.map((r) => r.id.length), 2);
  for (const r of rows) console.log(`${r.id.padEnd(width)}  ${r.version.padEnd(8)}  ${r.source.padEnd(24)}  ${r.status}`);
  if (problem) {
    console.log(`\nThe host would refuse to start: ${problem}`);
    return 1;
  }
  return rows.some((r) => r.status.startsWith("not loaded")) ? 1 : 0;
}

/**
 * Which package `npm install <spec>` installed, from MUSTER_HOME's dependencies before and
 * after: a new one, else the one whose spec changed (a newer version of an installed plugin,
 * a new tarball), else the one recorded for this very spec (reinstalled as it was), else
 * the name in the spec itself (`name@range`).
 */
function installedName(spec: string, before: Record<string, string>, after: Record<string, string>, home: string): string {
  const names = Object.keys(after);
  const local = existsSync(spec) ? resolve(spec) : null;
  const recordedFor = (name: string) => {
    const value = after[name]!;
    return local !== null && value.startsWith("file:") && resolve(home, value.slice("file:".length)) === local;
  };
  return (
    names.find((name) => !(name in before)) ??
    names.find((name) => before[name] !== after[name]) ??
    names.find(recordedFor) ??
    spec.replace(/(.)@[^@/]*$/, "$1")
  );
}

/** Installs a package (name, version spec or tarball path) under MUSTER_HOME and enables it; a newer version replaces the installed one. */
export async function addPlugin(spec: string): Promise<number> {
  const config = loadConfig();
  mkdirSync(config.home, { recursive: true });
  const pkgJson = join(config.home, "package.json");
  if (!existsSync(pkgJson)) writeFileSync(pkgJson, `${JSON.stringify({ name: "muster-home", private: true }, null, 2)}\n`);
  const before = JSON.parse(readFileSync(pkgJson, "utf8")) as { dependencies?: Record<string, string> };
  const npm = spawnSync("npm", ["install", "--prefix", config.home, "--legacy-peer-deps", "--no-audit", "--no-fund", spec], { stdio: "inherit" });
  if (npm.status !== 0) return npm.status ?? 1;
  const after = JSON.parse(readFileSync(pkgJson, "utf8")) as { dependencies?: Record<string, string> };
  const added = installedName(spec, before.dependencies ?? {}, after.dependencies ?? {}, config.home);
  const plugin = await loadThirdPartyPlugin(added, config.home);
  const configPath = join(config.home, "muster.config.json");
  const file = existsSync(configPath) ? (JSON.parse(readFileSync(configPath, "utf8")) as { plugins?: string[] }) : {};
  file.plugins = [...new Set([...(file.plugins ?? []), added])];
  writeFileSync(configPath, `${JSON.stringify(file, null, 2)}\n`);
  console.log(`Enabled plugin "${plugin.definition.id}" (${plugin.source}); restart Muster to load it.`);
  return 0;
}

/**
 * The reverse of {@link addPlugin}: drops the package from muster.config.json's `plugins`
 * and uninstalls it from MUSTER_HOME. Its tables stay in the database (re-adding the
 * plugin finds its data again). Throws PLUGIN_NOT_INSTALLED when it is neither enabled
 * nor installed.
 */
export async function removePlugin(name: string): Promise<number> {
  const config = loadConfig();
  const configPath = join(config.home, "muster.config.json");
  const pkgJson = join(config.home, "package.json");
  const file = existsSync(configPath) ? (JSON.parse(readFileSync(configPath, "utf8")) as { plugins?: string[] }) : {};
  const installed = existsSync(pkgJson) && name in ((JSON.parse(readFileSync(pkgJson, "utf8")) as { dependencies?: Record<string, string> }).dependencies ?? {});
  const enabled = (file.plugins ?? []).includes(name);
  if (!installed && !enabled) throw cliErrors.PLUGIN_NOT_INSTALLED({ name, home: config.home });
  if (enabled) {
    // Disabled first: should the uninstall fail, the server no longer tries to load a half-removed package.
    file.plugins = file.plugins!.filter((p) => p !== name);
    writeFileSync(configPath, `${JSON.stringify(file, null, 2)}\n`);
  }
  if (installed) {
    const npm = spawnSync("npm", ["uninstall", "--prefix", config.home, "--no-audit", "--no-fund", name], { stdio: "inherit" });
    if (npm.status !== 0) return npm.status ?? 1;
  }
  console.log(`Removed plugin package "${name}"${enabled ? "" : " (it was installed but not enabled)"}; restart Muster to unload it. Its tables stay in the database.`);
  return 0;
}
