import type { ReadContractReturnType } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";

/** Parameters of {@link surplus}. */
export interface SurplusParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
}

/** What {@link surplus} resolves with, typed from the contract's ABI. */
export type SurplusReturnType = ReadContractReturnType<typeof marketplaceAbi, "surplus">;

/** Errors {@link surplus} can throw (each with a stable `code`). */
export type SurplusErrorType = MarketplaceReadErrorType;

/**
 * ETH forced into the marketplace (balance beyond accrued fees and held balances), in wei.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const surplus = await client.surplus();
 * // or, without the decorator:
 * const surplus = await surplus(client, { addresses });
 */
export async function surplus(client: MarketplaceClient, parameters: SurplusParameters): Promise<SurplusReturnType> {
  return readMarketplace(client, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "surplus", args: [] });
}
