import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { MARKETPLACE_LIMITS, checkBps } from "../validate.ts";

/** Parameters of {@link setPlatformFee}. */
export interface SetPlatformFeeParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The platform fee in basis points (at most 1000). */
  feeBps: number;
}

/** What {@link setPlatformFee} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type SetPlatformFeeReturnType = WriteReturn<typeof marketplaceAbi, "setPlatformFee">;

/** Errors {@link setPlatformFee} can throw (each with a stable `code`). */
export type SetPlatformFeeErrorType = MarketplaceWriteErrorType;

/**
 * Owner only: sets the platform fee taken from each sale.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.setPlatformFee({ feeBps: 300 });
 * // or, without the decorator:
 * await setPlatformFee(client, { addresses, feeBps: 300 });
 */
export async function setPlatformFee(client: MarketplaceClient, parameters: SetPlatformFeeParameters): Promise<SetPlatformFeeReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "setPlatformFee", args: [checkBps("feeBps", parameters.feeBps, MARKETPLACE_LIMITS.maxPlatformFeeBps)] });
}
