// The built-in plugins, in the order they are listed to the host (the host orders them
// by dependencies; unrelated plugins keep this order). The list is plugins/built-in-loaders.ts;
// this module loads them all before it is imported (tests, tools, the CLI's other commands).
import type { PluginDefinition } from "@muster/plugin";
import { builtInPluginLoaders } from "./built-in-loaders.ts";

export const builtInPlugins: PluginDefinition[] = [];
// One after the other, so that the plugins' modules evaluate in the list's order, as imports would.
for (const load of builtInPluginLoaders) builtInPlugins.push(await load());
