import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import type { MemoryConfig } from "../config.ts";
import { MEMORY_READER } from "../tokens.ts";
import { MemoryReader } from "./memory-reader.ts";

/** Provides the workspace memory reader. */
export function registerMemoryServices(ctx: PluginContext<MemoryConfig>): void {
  ctx.provide(
    defineService({
      token: MEMORY_READER,
      deps: { workspace: hostTokens.workspace, config: configToken<MemoryConfig>(), logger: hostTokens.logger },
      create: (deps) => new MemoryReader(deps),
    }),
  );
}
