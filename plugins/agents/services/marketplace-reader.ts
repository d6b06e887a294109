import type { Address } from "viem";
import { agentsErrors } from "../errors.ts";
import type { AgentsConfig } from "../config.ts";

/** At most this many templates are read per listing (newest last): a page, not the whole chain. */
export const TEMPLATE_LIST_LIMIT = 200;

export interface ListedTemplate {
  id: string;
  creator: string;
  metadataURI: string;
  /** Wei, as a decimal string (JSON has no bigint). */
  price: string;
  royaltyBps: number;
  active: boolean;
  installs: string;
  createdAt: string;
  /**
   * The transaction a wallet sends to buy it (`eth_sendTransaction` with its own `from`):
   * the SDK's safer `purchase(templateId, maxPrice)` with maxPrice = the price read now, so a
   * price raised before it is mined reverts instead of costing more (docs/marketplace.md).
   */
  purchase: { to: string; data: string; value: string };
}

/**
 * Reads the marketplace chain configured for licence checks (`agents.marketplace`) for the
 * console: templates with price and installs, and the templates an address holds a valid
 * licence for. Writes never happen here: buying is the buyer's wallet's transaction.
 */
export class MarketplaceReader {
  private readonly config: AgentsConfig["marketplace"];

  constructor(config: AgentsConfig["marketplace"]) {
    this.config = config;
  }

  private async client() {
    const config = this.config;
    // Not configured is this server's state, not a failure of the chain: 409, as the other plugins' *_NOT_CONFIGURED.
    if (!config) throw agentsErrors.AGENTS_MARKETPLACE_NOT_CONFIGURED();
    // viem and the SDK are ~500 modules: loaded by the first read, not at start.
    const [{ createPublicClient, http, encodeFunctionData }, sdk] = await Promise.all([import("viem"), import("@muster/sdk")]);
    const client = createPublicClient({ transport: http(config.rpcUrl, { timeout: config.timeoutMs, retryCount: 0 }) });
    const addresses = config.addresses as { templateRegistry: Address; licenseToken: Address; marketplace: Address };
    return { client, addresses, sdk, encodeFunctionData };
  }

  private unavailable(error: unknown): Error {
    const code = (error as { code?: string }).code;
    if (code === "AGENTS_MARKETPLACE_UNAVAILABLE" || code === "AGENTS_MARKETPLACE_NOT_CONFIGURED") return error as Error;
    return agentsErrors.AGENTS_MARKETPLACE_UNAVAILABLE({ reason: (error as { shortMessage?: string }).shortMessage ?? "the chain did not answer" }, { cause: error });
  }

  async templates(): Promise<{ chainId: number; addresses: Record<string, string>; total: number; templates: ListedTemplate[] }> {
    try {
      const { client, addresses, sdk, encodeFunctionData } = await this.client();
      const [chainId, count] = await Promise.all([client.getChainId(), sdk.templateCount(client, { addresses })]);
      const first = count > BigInt(TEMPLATE_LIST_LIMIT) ? count - BigInt(TEMPLATE_LIST_LIMIT) + 1n : 1n;
      const ids: bigint[] = [];
      for (let id = first; id <= count; id++) ids.push(id);
      const read = await Promise.all(ids.map((templateId) => sdk.getTemplate(client, { addresses, templateId })));
      const templates = read.map((template) => ({
        id: template.id.toString(),
        creator: template.creator,
        metadataURI: template.metadataURI,
        price: template.price.toString(),
        royaltyBps: template.royaltyBps,
        active: template.active,
        installs: template.installs.toString(),
        createdAt: new Date(Number(template.createdAt) * 1000).toISOString(),
        purchase: {
          to: addresses.marketplace,
          data: encodeFunctionData({ abi: sdk.marketplaceAbi, functionName: "purchase", args: [template.id, template.price] }),
          value: `0x${template.price.toString(16)}`,
        },
      }));
      return { chainId, addresses, total: Number(count), templates };
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  /** The template ids `holder` holds a valid licence for. */
  async licences(holder: string): Promise<string[]> {
    try {
      const { client, addresses, sdk } = await this.client();
      const ids = await sdk.licensesOf(client, { addresses, user: holder as Address });
      return ids.map((id) => id.toString());
    } catch (error) {
      throw this.unavailable(error);
    }
  }
}
