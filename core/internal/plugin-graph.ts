// Checks the plugin graph before any plugin code runs, and orders plugins so that each
// starts after everything it depends on (stable for unrelated plugins).
// The three functions, not the package's index: that loads all of semver (~50 modules) at start.
import validVersion from "semver/functions/valid.js";
import validRange from "semver/ranges/valid.js";
import satisfies from "semver/functions/satisfies.js";
import type { PluginDefinition } from "../plugin-api/define-plugin.ts";
import { startErrors } from "./start-errors.ts";
import { checkEntityTables } from "./plugin-tables.ts";

const ID = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

function checkShape(plugin: PluginDefinition, index: number): void {
  const label = typeof plugin?.id === "string" ? `plugin "${plugin.id}"` : `plugin #${index + 1}`;
  const invalid = (reason: string) => startErrors.PLUGIN_INVALID({ plugin: label, reason });
  if (!plugin || typeof plugin !== "object") throw invalid("not a plugin definition object");
  if (typeof plugin.id !== "string" || !ID.test(plugin.id)) {
    throw invalid(`id must be kebab-case (got ${JSON.stringify(plugin.id)})`);
  }
  if (typeof plugin.version !== "string" || !validVersion(plugin.version)) {
    throw invalid("version must be a semver version");
  }
  if (typeof plugin.host !== "string" || !validRange(plugin.host)) {
    throw invalid('host must be a semver range such as "^1.0.0"');
  }
  for (const path of plugin.paths ?? []) {
    // API routes live under /api; a plugin may also serve the root page (`/`, the dashboard)
    // or one top-level name (`/metrics`, `/mcp`) that is not an API resource.
    const valid = path === "/" || (typeof path === "string" && /^(?:\/[a-z0-9_-]+)+$/.test(path));
    if (!valid) {
      throw invalid(`path ${JSON.stringify(path)} must look like /api/<name>, /<name> or /`);
    }
  }
}

/** True when one prefix contains the other at a segment boundary (`/api/memory` and `/api/memory/rag`). */
function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/**
 * Validates the graph and returns the plugins in start order. `hostPaths` are the
 * prefixes the host serves itself, which no plugin may claim.
 * Throws the {@link startErrors} error of the first problem found.
 */
export function orderPlugins(plugins: PluginDefinition[], hostVersion: string, hostPaths: string[] = []): PluginDefinition[] {
  plugins.forEach(checkShape);
  plugins.forEach(checkEntityTables);

  const byId = new Map<string, PluginDefinition>();
  for (const plugin of plugins) {
    if (byId.has(plugin.id)) throw startErrors.PLUGIN_DUPLICATE_ID({ id: plugin.id });
    byId.set(plugin.id, plugin);
  }

  for (const plugin of plugins) {
    if (!satisfies(hostVersion, plugin.host)) {
      throw startErrors.PLUGIN_HOST_INCOMPATIBLE({ id: plugin.id, range: plugin.host, version: hostVersion });
    }
    for (const dep of plugin.dependsOn ?? []) {
      if (!byId.has(dep)) {
        throw startErrors.PLUGIN_MISSING_DEPENDENCY({ id: plugin.id, dependency: dep });
      }
    }
  }

  // The host's own endpoints (/api/health, /api/auth, ...) are owned like a plugin's.
  const owners: { path: string; id: string }[] = hostPaths.map((path) => ({ path, id: "host" }));
  for (const plugin of plugins) {
    for (const path of plugin.paths ?? []) {
      const clash = owners.find((o) => overlaps(o.path, path));
      if (clash) {
        throw startErrors.PLUGIN_PATH_OVERLAP({ id: plugin.id, path, other: clash.path, owner: clash.id });
      }
      owners.push({ path, id: plugin.id });
    }
  }

  const edges = (p: PluginDefinition) => [...(p.dependsOn ?? []), ...(p.optionalDependsOn ?? []).filter((d) => byId.has(d))];
  const ordered: PluginDefinition[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (plugin: PluginDefinition, trail: string[]) => {
    const s = state.get(plugin.id);
    if (s === "done") return;
    if (s === "visiting") {
      const cycle = [...trail.slice(trail.indexOf(plugin.id)), plugin.id].join(" -> ");
      throw startErrors.PLUGIN_DEPENDENCY_CYCLE({ cycle });
    }
    state.set(plugin.id, "visiting");
    for (const dep of edges(plugin)) visit(byId.get(dep)!, [...trail, plugin.id]);
    state.set(plugin.id, "done");
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}
