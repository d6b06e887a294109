import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";

/** Parameters of {@link pause}. */
export interface PauseParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
}

/** What {@link pause} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type PauseReturnType = WriteReturn<typeof marketplaceAbi, "pause">;

/** Errors {@link pause} can throw (each with a stable `code`). */
export type PauseErrorType = MarketplaceWriteErrorType;

/**
 * Owner only: stops purchases (withdrawals keep working).
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.pause();
 * // or, without the decorator:
 * await pause(client, { addresses });
 */
export async function pause(client: MarketplaceClient, parameters: PauseParameters): Promise<PauseReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "pause", args: [] });
}
