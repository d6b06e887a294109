import type { ReadContractReturnType } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import type { MarketplaceContract } from "../types.ts";

/** Parameters of {@link renounceOwnership}. */
export interface RenounceOwnershipParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** Which of the three contracts. */
  contract: MarketplaceContract;
}

/** What {@link renounceOwnership} resolves with, typed from the contract's ABI. */
export type RenounceOwnershipReturnType = ReadContractReturnType<typeof marketplaceAbi, "renounceOwnership">;

/** Errors {@link renounceOwnership} can throw (each with a stable `code`). */
export type RenounceOwnershipErrorType = MarketplaceReadErrorType;

/**
 * Disabled on all three contracts (the override is `view`, so this is a call, never a transaction): always reverts with `RenounceOwnershipDisabled` for the owner, `OwnableUnauthorizedAccount` for anyone else.
 * The three contracts share OpenZeppelin's `Ownable2Step` functions, so the marketplace ABI types the call on any of them.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.renounceOwnership({ contract: "licenseToken" }); // MarketplaceContractError "RenounceOwnershipDisabled"
 * // or, without the decorator:
 * await renounceOwnership(client, { addresses, contract: "licenseToken" }); // MarketplaceContractError "RenounceOwnershipDisabled"
 */
export async function renounceOwnership(client: MarketplaceClient, parameters: RenounceOwnershipParameters): Promise<RenounceOwnershipReturnType> {
  return readMarketplace(client, { address: parameters.addresses[parameters.contract], abi: marketplaceAbi, functionName: "renounceOwnership", args: [] });
}
