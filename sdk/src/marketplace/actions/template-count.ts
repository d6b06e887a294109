import type { ReadContractReturnType } from "viem";
import { templateRegistryAbi } from "../../abi/template-registry.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";

/** Parameters of {@link templateCount}. */
export interface TemplateCountParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
}

/** What {@link templateCount} resolves with, typed from the contract's ABI. */
export type TemplateCountReturnType = ReadContractReturnType<typeof templateRegistryAbi, "templateCount">;

/** Errors {@link templateCount} can throw (each with a stable `code`). */
export type TemplateCountErrorType = MarketplaceReadErrorType;

/**
 * Number of registered templates (also the highest id).
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const count = await client.templateCount();
 * // or, without the decorator:
 * const count = await templateCount(client, { addresses });
 */
export async function templateCount(client: MarketplaceClient, parameters: TemplateCountParameters): Promise<TemplateCountReturnType> {
  return readMarketplace(client, { address: parameters.addresses.templateRegistry, abi: templateRegistryAbi, functionName: "templateCount", args: [] });
}
