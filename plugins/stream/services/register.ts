import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import type { StreamConfig } from "../config.ts";
import { STREAM } from "../tokens.ts";
import { SseHub } from "./sse-hub.ts";

/** Provides the SSE hub. */
export function registerStreamServices(ctx: PluginContext<StreamConfig>): void {
  ctx.provide(
    defineService({
      token: STREAM,
      deps: { config: configToken<StreamConfig>(), logger: hostTokens.logger },
      create: (deps) => new SseHub(deps),
    }),
  );
}
