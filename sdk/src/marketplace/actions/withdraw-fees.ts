import type { Address } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { checkAddress } from "../validate.ts";

/** Parameters of {@link withdrawFees}. */
export interface WithdrawFeesParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The recipient. */
  to: Address;
}

/** What {@link withdrawFees} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type WithdrawFeesReturnType = WriteReturn<typeof marketplaceAbi, "withdrawFees">;

/** Errors {@link withdrawFees} can throw (each with a stable `code`). */
export type WithdrawFeesErrorType = MarketplaceWriteErrorType;

/**
 * Owner only: sends all accrued platform fees to `to` (works while paused), through `withdrawFees(to)`.
 *
 * Why the overload and not the spec's `withdrawFees()` (which pays the owner): an owner that is a contract
 * without a `receive` function (a multisig module, a DAO executor) cannot take ETH, and its fees would be stuck;
 * naming the recipient works for every owner. Pass the owner's own address to get the spec's behaviour. Both
 * forms emit the same `FeesWithdrawn` event.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.withdrawFees({ to: treasury });
 * // or, without the decorator:
 * await withdrawFees(client, { addresses, to: treasury });
 */
export async function withdrawFees(client: MarketplaceClient, parameters: WithdrawFeesParameters): Promise<WithdrawFeesReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "withdrawFees", args: [checkAddress("to", parameters.to)] });
}
