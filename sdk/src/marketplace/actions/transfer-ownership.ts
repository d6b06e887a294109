import type { Address } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import type { MarketplaceContract } from "../types.ts";
import { checkAddress } from "../validate.ts";

/** Parameters of {@link transferOwnership}. */
export interface TransferOwnershipParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** Which of the three contracts. */
  contract: MarketplaceContract;
  /** The proposed owner (it must call `acceptOwnership`). */
  newOwner: Address;
}

/** What {@link transferOwnership} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type TransferOwnershipReturnType = WriteReturn<typeof marketplaceAbi, "transferOwnership">;

/** Errors {@link transferOwnership} can throw (each with a stable `code`). */
export type TransferOwnershipErrorType = MarketplaceWriteErrorType;

/**
 * Owner only: starts a two-step ownership transfer of the contract.
 * The three contracts share OpenZeppelin's `Ownable2Step` functions, so the marketplace ABI types the call on any of them.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.transferOwnership({ contract: "marketplace", newOwner });
 * // or, without the decorator:
 * await transferOwnership(client, { addresses, contract: "marketplace", newOwner });
 */
export async function transferOwnership(client: MarketplaceClient, parameters: TransferOwnershipParameters): Promise<TransferOwnershipReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses[parameters.contract], abi: marketplaceAbi, functionName: "transferOwnership", args: [checkAddress("newOwner", parameters.newOwner, { allowZero: true })] });
}
