import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";

/** Parameters of {@link unpause}. */
export interface UnpauseParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
}

/** What {@link unpause} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type UnpauseReturnType = WriteReturn<typeof marketplaceAbi, "unpause">;

/** Errors {@link unpause} can throw (each with a stable `code`). */
export type UnpauseErrorType = MarketplaceWriteErrorType;

/**
 * Owner only: resumes purchases.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.unpause();
 * // or, without the decorator:
 * await unpause(client, { addresses });
 */
export async function unpause(client: MarketplaceClient, parameters: UnpauseParameters): Promise<UnpauseReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "unpause", args: [] });
}
