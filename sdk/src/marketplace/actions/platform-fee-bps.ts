import type { ReadContractReturnType } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";

/** Parameters of {@link platformFeeBps}. */
export interface PlatformFeeBpsParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
}

/** What {@link platformFeeBps} resolves with, typed from the contract's ABI. */
export type PlatformFeeBpsReturnType = ReadContractReturnType<typeof marketplaceAbi, "platformFeeBps">;

/** Errors {@link platformFeeBps} can throw (each with a stable `code`). */
export type PlatformFeeBpsErrorType = MarketplaceReadErrorType;

/**
 * The platform fee, in basis points.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const feeBps = await client.platformFeeBps(); // 250 by default
 * // or, without the decorator:
 * const feeBps = await platformFeeBps(client, { addresses }); // 250 by default
 */
export async function platformFeeBps(client: MarketplaceClient, parameters: PlatformFeeBpsParameters): Promise<PlatformFeeBpsReturnType> {
  return readMarketplace(client, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "platformFeeBps", args: [] });
}
