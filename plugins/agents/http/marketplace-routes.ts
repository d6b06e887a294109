import { z, type PluginRouter } from "@muster/plugin";
import type { AgentsConfig } from "../config.ts";
import { MarketplaceReader, TEMPLATE_LIST_LIMIT } from "../services/marketplace-reader.ts";

const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address");
const UNAVAILABLE = "409 AGENTS_MARKETPLACE_NOT_CONFIGURED when no chain is configured (agents.marketplace); 503 AGENTS_MARKETPLACE_UNAVAILABLE when it does not answer.";

const templatesResponse = z.object({
  ok: z.literal(true),
  chainId: z.number().int(),
  addresses: z.record(z.string(), z.string()),
  total: z.number().int(),
  templates: z.array(
    z.object({
      id: z.string(),
      creator: z.string(),
      metadataURI: z.string(),
      price: z.string(),
      royaltyBps: z.number().int(),
      active: z.boolean(),
      installs: z.string(),
      createdAt: z.string(),
      purchase: z.object({ to: z.string(), data: z.string(), value: z.string() }),
    }),
  ),
});
const licencesResponse = z.object({ ok: z.literal(true), holder: z.string(), templateIds: z.array(z.string()) });

/** Read-only views of the marketplace chain for the console (buying is the buyer's own wallet transaction). */
export function mountMarketplaceRoutes(router: PluginRouter, config: AgentsConfig): void {
  const reader = new MarketplaceReader(config.marketplace);
  router.get(
    "/api/marketplace/templates",
    {
      summary: `Templates on the configured marketplace chain (the newest ${TEMPLATE_LIST_LIMIT}), with price (wei), installs, and the purchase transaction a wallet sends to buy one`,
      description: `purchase is purchase(templateId, maxPrice = the price read now) to the Marketplace contract, value = the price; the wallet adds from. ${UNAVAILABLE}`,
      query: z.strictObject({}),
      response: templatesResponse,
    },
    async () => ({ ok: true, ...(await reader.templates()) }),
  );
  router.get(
    "/api/marketplace/licences",
    { summary: "The template ids an address holds a valid licence for (LicenseToken.licensesOf)", description: UNAVAILABLE, query: z.strictObject({ holder: evmAddress }), response: licencesResponse },
    async ({ query }) => ({ ok: true, holder: query.holder, templateIds: await reader.licences(query.holder) }),
  );
}
