// Checks the plugin graph before any plugin code runs, and orders plugins so that each
// starts after everything it depends on (stable for unrelated plugins).
import semver from "semver";
import type { PluginDefinition } from "../plugin-api/define-plugin.ts";

export type PluginGraphErrorCode =
  | "PLUGIN_INVALID"
  | "PLUGIN_DUPLICATE_ID"
  | "PLUGIN_HOST_INCOMPATIBLE"
  | "PLUGIN_MISSING_DEPENDENCY"
  | "PLUGIN_DEPENDENCY_CYCLE"
  | "PLUGIN_PATH_OVERLAP";

export class PluginGraphError extends Error {
  readonly code: PluginGraphErrorCode;
  constructor(code: PluginGraphErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = "PluginGraphError";
  }
}

const ID = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

function checkShape(plugin: PluginDefinition, index: number): void {
  const label = typeof plugin?.id === "string" ? `plugin "${plugin.id}"` : `plugin #${index + 1}`;
  if (!plugin || typeof plugin !== "object") throw new PluginGraphError("PLUGIN_INVALID", `${label} is not a plugin definition object`);
  if (typeof plugin.id !== "string" || !ID.test(plugin.id)) {
    throw new PluginGraphError("PLUGIN_INVALID", `${label}: id must be kebab-case (got ${JSON.stringify(plugin.id)})`);
  }
  if (typeof plugin.version !== "string" || !semver.valid(plugin.version)) {
    throw new PluginGraphError("PLUGIN_INVALID", `${label}: version must be a semver version`);
  }
  if (typeof plugin.host !== "string" || !semver.validRange(plugin.host)) {
    throw new PluginGraphError("PLUGIN_INVALID", `${label}: host must be a semver range such as "^1.0.0"`);
  }
  for (const path of plugin.paths ?? []) {
    if (typeof path !== "string" || !/^\/api\/[a-z0-9/_-]+$/.test(path) || path.endsWith("/")) {
      throw new PluginGraphError("PLUGIN_INVALID", `${label}: path ${JSON.stringify(path)} must look like /api/<name>`);
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
 * Throws {@link PluginGraphError} for the first problem found.
 */
export function orderPlugins(plugins: PluginDefinition[], hostVersion: string, hostPaths: string[] = []): PluginDefinition[] {
  plugins.forEach(checkShape);

  const byId = new Map<string, PluginDefinition>();
  for (const plugin of plugins) {
    if (byId.has(plugin.id)) throw new PluginGraphError("PLUGIN_DUPLICATE_ID", `Two plugins have the id "${plugin.id}"`);
    byId.set(plugin.id, plugin);
  }

  for (const plugin of plugins) {
    if (!semver.satisfies(hostVersion, plugin.host)) {
      throw new PluginGraphError(
        "PLUGIN_HOST_INCOMPATIBLE",
        `Plugin "${plugin.id}" needs plugin API ${plugin.host}; this host provides ${hostVersion}`,
      );
    }
    for (const dep of plugin.dependsOn ?? []) {
      if (!byId.has(dep)) {
        throw new PluginGraphError("PLUGIN_MISSING_DEPENDENCY", `Plugin "${plugin.id}" depends on "${dep}", which is not loaded`);
      }
    }
  }

  // The host's own endpoints (/api/health, /api/auth, ...) are owned like a plugin's.
  const owners: { path: string; id: string }[] = hostPaths.map((path) => ({ path, id: "host" }));
  for (const plugin of plugins) {
    for (const path of plugin.paths ?? []) {
      const clash = owners.find((o) => overlaps(o.path, path));
      if (clash) {
        throw new PluginGraphError(
          "PLUGIN_PATH_OVERLAP",
          `Plugin "${plugin.id}" claims ${path}, which overlaps ${clash.path} of plugin "${clash.id}"`,
        );
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
      throw new PluginGraphError("PLUGIN_DEPENDENCY_CYCLE", `Plugin dependency cycle: ${cycle}`);
    }
    state.set(plugin.id, "visiting");
    for (const dep of edges(plugin)) visit(byId.get(dep)!, [...trail, plugin.id]);
    state.set(plugin.id, "done");
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}
