import type { ReadContractReturnType } from "viem";
import { templateRegistryAbi } from "../../abi/template-registry.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";

/** Parameters of {@link marketplaceOf}. */
export interface MarketplaceOfParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The registry or the license token. */
  contract: "templateRegistry" | "licenseToken";
}

/** What {@link marketplaceOf} resolves with, typed from the contract's ABI. */
export type MarketplaceOfReturnType = ReadContractReturnType<typeof templateRegistryAbi, "marketplace">;

/** Errors {@link marketplaceOf} can throw (each with a stable `code`). */
export type MarketplaceOfErrorType = MarketplaceReadErrorType;

/**
 * The marketplace the registry or the license token accepts calls from.
 * Both contracts share `MarketplaceBound`'s functions, so the registry ABI types the call on either.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const market = await client.marketplaceOf({ contract: "licenseToken" });
 * // or, without the decorator:
 * const market = await marketplaceOf(client, { addresses, contract: "licenseToken" });
 */
export async function marketplaceOf(client: MarketplaceClient, parameters: MarketplaceOfParameters): Promise<MarketplaceOfReturnType> {
  return readMarketplace(client, { address: parameters.addresses[parameters.contract], abi: templateRegistryAbi, functionName: "marketplace", args: [] });
}
