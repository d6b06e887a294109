import { definePlugin } from "@muster/plugin";
import { gatewayConfig } from "./config.ts";
import { gatewayRoutes } from "./http/routes.ts";
import { registerGatewayServices } from "./services/register.ts";

/**
 * Read-only proxies of the OpenClaw gateway (DESIGN §14.1): its sessions and its own cron
 * jobs, read through the host's gateway client.
 */
export const gatewayPlugin = definePlugin({
  id: "gateway",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/gateway"],
  config: gatewayConfig,
  register: registerGatewayServices,
  routes: gatewayRoutes,
});

export default gatewayPlugin;
