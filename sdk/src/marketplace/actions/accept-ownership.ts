import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import type { MarketplaceContract } from "../types.ts";

/** Parameters of {@link acceptOwnership}. */
export interface AcceptOwnershipParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** Which of the three contracts. */
  contract: MarketplaceContract;
}

/** What {@link acceptOwnership} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type AcceptOwnershipReturnType = WriteReturn<typeof marketplaceAbi, "acceptOwnership">;

/** Errors {@link acceptOwnership} can throw (each with a stable `code`). */
export type AcceptOwnershipErrorType = MarketplaceWriteErrorType;

/**
 * Pending owner only: completes the ownership transfer of the contract.
 * The three contracts share OpenZeppelin's `Ownable2Step` functions, so the marketplace ABI types the call on any of them.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.acceptOwnership({ contract: "marketplace" });
 * // or, without the decorator:
 * await acceptOwnership(client, { addresses, contract: "marketplace" });
 */
export async function acceptOwnership(client: MarketplaceClient, parameters: AcceptOwnershipParameters): Promise<AcceptOwnershipReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses[parameters.contract], abi: marketplaceAbi, functionName: "acceptOwnership", args: [] });
}
