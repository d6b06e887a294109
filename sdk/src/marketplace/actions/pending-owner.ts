import type { ReadContractReturnType } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import type { MarketplaceContract } from "../types.ts";

/** Parameters of {@link pendingOwner}. */
export interface PendingOwnerParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** Which of the three contracts. */
  contract: MarketplaceContract;
}

/** What {@link pendingOwner} resolves with, typed from the contract's ABI. */
export type PendingOwnerReturnType = ReadContractReturnType<typeof marketplaceAbi, "pendingOwner">;

/** Errors {@link pendingOwner} can throw (each with a stable `code`). */
export type PendingOwnerErrorType = MarketplaceReadErrorType;

/**
 * The account a two-step ownership transfer of the contract waits on (zero if none).
 * The three contracts share OpenZeppelin's `Ownable2Step` functions, so the marketplace ABI types the call on any of them.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const pending = await client.pendingOwner({ contract: "licenseToken" });
 * // or, without the decorator:
 * const pending = await pendingOwner(client, { addresses, contract: "licenseToken" });
 */
export async function pendingOwner(client: MarketplaceClient, parameters: PendingOwnerParameters): Promise<PendingOwnerReturnType> {
  return readMarketplace(client, { address: parameters.addresses[parameters.contract], abi: marketplaceAbi, functionName: "pendingOwner", args: [] });
}
