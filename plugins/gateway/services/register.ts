import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import type { GatewayConfig } from "../config.ts";
import { GATEWAY_PROXY } from "../tokens.ts";
import { GatewayProxyService } from "./gateway-proxy.ts";

/** Provides the gateway proxy. */
export function registerGatewayServices(ctx: PluginContext<GatewayConfig>): void {
  ctx.provide(
    defineService({
      token: GATEWAY_PROXY,
      deps: { gateway: hostTokens.gateway, config: configToken<GatewayConfig>() },
      create: (deps) => new GatewayProxyService(deps),
    }),
  );
}
