import type { ReadContractReturnType } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";

/** Parameters of {@link totalHeld}. */
export interface TotalHeldParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
}

/** What {@link totalHeld} resolves with, typed from the contract's ABI. */
export type TotalHeldReturnType = ReadContractReturnType<typeof marketplaceAbi, "totalHeld">;

/** Errors {@link totalHeld} can throw (each with a stable `code`). */
export type TotalHeldErrorType = MarketplaceReadErrorType;

/**
 * Sum of all held balances, in wei.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const held = await client.totalHeld();
 * // or, without the decorator:
 * const held = await totalHeld(client, { addresses });
 */
export async function totalHeld(client: MarketplaceClient, parameters: TotalHeldParameters): Promise<TotalHeldReturnType> {
  return readMarketplace(client, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "totalHeld", args: [] });
}
