import type { Address } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { checkAddress } from "../validate.ts";

/** Parameters of {@link withdrawTo}. */
export interface WithdrawToParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The recipient. */
  to: Address;
}

/** What {@link withdrawTo} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type WithdrawToReturnType = WriteReturn<typeof marketplaceAbi, "withdrawTo">;

/** Errors {@link withdrawTo} can throw (each with a stable `code`). */
export type WithdrawToErrorType = MarketplaceWriteErrorType;

/**
 * Withdraws the account's held balance to `to` (works while paused).
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.withdrawTo({ to: "0x…" });
 * // or, without the decorator:
 * await withdrawTo(client, { addresses, to: "0x…" });
 */
export async function withdrawTo(client: MarketplaceClient, parameters: WithdrawToParameters): Promise<WithdrawToReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "withdrawTo", args: [checkAddress("to", parameters.to)] });
}
