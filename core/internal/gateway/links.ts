// The host's gateway links, one per configured gateway (DESIGN §16). `makeLink` builds one
// link's client: the host passes the plain WebSocket client; team mode may wrap it (a lease,
// so that one instance of a deployment holds each link).
import type { MusterConfig } from "../config.ts";
import type { GatewayLinkConfig } from "./link-config.ts";
import type { HostGatewayClient } from "./client.ts";
import type { NamedGatewayLink } from "./router.ts";

export function createGatewayLinks(config: Pick<MusterConfig, "gateways">, makeLink: (link: GatewayLinkConfig) => HostGatewayClient): NamedGatewayLink[] {
  return config.gateways.map((link) => ({ name: link.name, client: makeLink(link) }));
}
