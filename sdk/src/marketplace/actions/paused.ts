import type { ReadContractReturnType } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";

/** Parameters of {@link paused}. */
export interface PausedParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
}

/** What {@link paused} resolves with, typed from the contract's ABI. */
export type PausedReturnType = ReadContractReturnType<typeof marketplaceAbi, "paused">;

/** Errors {@link paused} can throw (each with a stable `code`). */
export type PausedErrorType = MarketplaceReadErrorType;

/**
 * Whether purchases are stopped.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const stopped = await client.paused();
 * // or, without the decorator:
 * const stopped = await paused(client, { addresses });
 */
export async function paused(client: MarketplaceClient, parameters: PausedParameters): Promise<PausedReturnType> {
  return readMarketplace(client, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "paused", args: [] });
}
