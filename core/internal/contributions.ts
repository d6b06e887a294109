// Wiring extension points (DESIGN §15): each point's contributions become the value of its
// `contributions` token, owned by the point's owner; a contribution built from deps is built
// as its contributor (with the contributor's dependency visibility) on first resolve.
import type { PluginDefinition } from "../plugin-api/define-plugin.ts";
import { ownerOf, type Contributed, type Contribution, type ExtensionPoint } from "../plugin-api/extension-points.ts";
import { hostPoints } from "../plugin-api/host-points.ts";
import type { ServiceContainer, Requester } from "./container.ts";
import { startErrors } from "./start-errors.ts";

/** Who a plugin resolves as: itself and the plugins it declared. */
export function requesterOf(plugin: PluginDefinition): Requester {
  return { plugin: plugin.id, declared: new Set([...(plugin.dependsOn ?? []), ...(plugin.optionalDependsOn ?? [])]) };
}

const HOST_POINTS: readonly ExtensionPoint<unknown>[] = Object.values(hostPoints);

/** Each point with the contributions it receives, in plugin order. */
export type CollectedContributions = ReadonlyMap<ExtensionPoint<unknown>, readonly { plugin: PluginDefinition; contribution: Contribution }[]>;

/**
 * The contributions each point receives, in plugin order, after checking that every
 * contribution names a point its owner declares and that the contributor declared the owner.
 * A contribution to an optional owner that is not loaded is left out. The host gathers them
 * once per start and hands the result to every phase that reads them.
 */
export function collectContributions(plugins: readonly PluginDefinition[]): CollectedContributions {
  const byId = new Map(plugins.map((p) => [p.id, p]));
  const points = new Map<string, ExtensionPoint<unknown>>(HOST_POINTS.map((point) => [point.id, point]));
  for (const plugin of plugins) {
    for (const point of plugin.extensionPoints ?? []) {
      if (ownerOf(point) !== plugin.id) throw startErrors.PLUGIN_INVALID({ plugin: `plugin "${plugin.id}"`, reason: `extension point "${point.id}" must be named "${plugin.id}.<name>"` });
      points.set(point.id, point);
    }
  }
  const collected = new Map<ExtensionPoint<unknown>, { plugin: PluginDefinition; contribution: Contribution }[]>([...points.values()].map((point) => [point, []]));
  for (const plugin of plugins) {
    for (const contribution of plugin.contributions ?? []) {
      const id = contribution?.point?.id;
      const owner = typeof id === "string" ? ownerOf(contribution.point) : "";
      if (owner !== "host" && owner !== plugin.id) {
        if (!requesterOf(plugin).declared.has(owner)) throw startErrors.PLUGIN_CONTRIBUTION_UNDECLARED({ id: plugin.id, point: String(id), owner });
        if (!byId.has(owner)) continue;
      }
      const point = points.get(id);
      if (!point) throw startErrors.PLUGIN_CONTRIBUTION_UNKNOWN_POINT({ id: plugin.id, point: String(id), owner });
      collected.get(point)!.push({ plugin, contribution });
    }
  }
  return collected;
}

/**
 * The plain values contributed to a host point (what `muster doctor` and `muster mcp` read
 * without a server, and the owner sources the host reads before registering plugins), from
 * contributions already gathered or from the plugins.
 */
export function staticContributions<T>(from: readonly PluginDefinition[] | CollectedContributions, point: ExtensionPoint<T>): Contributed<T>[] {
  const collected = Array.isArray(from) ? collectContributions(from) : (from as CollectedContributions);
  const found = collected.get(point as ExtensionPoint<unknown>) ?? [];
  return found.map(({ plugin, contribution }) => {
    if (!("value" in contribution)) throw startErrors.PLUGIN_INVALID({ plugin: `plugin "${plugin.id}"`, reason: `its contribution to "${point.id}" must be a plain value (contribute), as it is read without a server` });
    return { plugin: plugin.id, value: contribution.value as T };
  });
}

/** Provides every point's contributions token; built lazily, as its contributors, on first resolve. */
export function provideContributions(collected: CollectedContributions, services: ServiceContainer, requesters: ReadonlyMap<string, Requester>): void {
  for (const [point, entries] of collected) {
    for (const { plugin, contribution } of entries) {
      if (!("value" in contribution)) services.declare(contribution, requesters.get(plugin.id)!, `${plugin.id}.contributions.${point.id}`);
    }
    services.provideComputed(point.contributions, ownerOf(point), () =>
      Object.freeze(
        entries.map(({ plugin, contribution }) => ({
          plugin: plugin.id,
          value: "value" in contribution ? contribution.value : contribution.create(services.resolveNeeds(contribution, requesters.get(plugin.id)!, `${plugin.id}.contributions.${point.id}`)),
        })),
      ),
    );
  }
}
