import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";

/** Parameters of {@link withdraw}. */
export interface WithdrawParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
}

/** What {@link withdraw} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type WithdrawReturnType = WriteReturn<typeof marketplaceAbi, "withdraw">;

/** Errors {@link withdraw} can throw (each with a stable `code`). */
export type WithdrawErrorType = MarketplaceWriteErrorType;

/**
 * Withdraws the account's held balance to itself (works while paused).
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.withdraw();
 * // or, without the decorator:
 * await withdraw(client, { addresses });
 */
export async function withdraw(client: MarketplaceClient, parameters: WithdrawParameters): Promise<WithdrawReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "withdraw", args: [] });
}
