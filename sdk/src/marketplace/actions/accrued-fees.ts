import type { ReadContractReturnType } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";

/** Parameters of {@link accruedFees}. */
export interface AccruedFeesParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
}

/** What {@link accruedFees} resolves with, typed from the contract's ABI. */
export type AccruedFeesReturnType = ReadContractReturnType<typeof marketplaceAbi, "accruedFees">;

/** Errors {@link accruedFees} can throw (each with a stable `code`). */
export type AccruedFeesErrorType = MarketplaceReadErrorType;

/**
 * Platform fees accrued and not yet withdrawn, in wei.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const fees = await client.accruedFees();
 * // or, without the decorator:
 * const fees = await accruedFees(client, { addresses });
 */
export async function accruedFees(client: MarketplaceClient, parameters: AccruedFeesParameters): Promise<AccruedFeesReturnType> {
  return readMarketplace(client, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "accruedFees", args: [] });
}
