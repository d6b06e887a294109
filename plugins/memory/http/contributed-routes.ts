import type { PluginRouter } from "@muster/plugin";
import { memoryErrors } from "../errors.ts";

const PREFIX = "/api/memory/";
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/**
 * This plugin's router as a contributor sees it: only paths under `/api/memory/`, so a
 * plugin given a place under the memory prefix cannot mount `/api/docs` or other routes
 * this plugin owns. A path outside it stops the start (MEMORY_ROUTE_OUTSIDE_PREFIX).
 */
export function underMemoryPrefix(router: PluginRouter, plugin: string): PluginRouter {
  const limited = {} as PluginRouter;
  for (const method of METHODS) {
    limited[method] = ((path, spec, handler) => {
      if (!path.startsWith(PREFIX)) throw memoryErrors.MEMORY_ROUTE_OUTSIDE_PREFIX({ plugin, path });
      router[method](path, spec, handler);
      return limited;
    }) as PluginRouter[typeof method];
  }
  return limited;
}
