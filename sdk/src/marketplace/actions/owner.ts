import type { ReadContractReturnType } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import type { MarketplaceContract } from "../types.ts";

/** Parameters of {@link owner}. */
export interface OwnerParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** Which of the three contracts. */
  contract: MarketplaceContract;
}

/** What {@link owner} resolves with, typed from the contract's ABI. */
export type OwnerReturnType = ReadContractReturnType<typeof marketplaceAbi, "owner">;

/** Errors {@link owner} can throw (each with a stable `code`). */
export type OwnerErrorType = MarketplaceReadErrorType;

/**
 * The owner of one of the three contracts.
 * The three contracts share OpenZeppelin's `Ownable2Step` functions, so the marketplace ABI types the call on any of them.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const owner = await client.owner({ contract: "marketplace" });
 * // or, without the decorator:
 * const owner = await owner(client, { addresses, contract: "marketplace" });
 */
export async function owner(client: MarketplaceClient, parameters: OwnerParameters): Promise<OwnerReturnType> {
  return readMarketplace(client, { address: parameters.addresses[parameters.contract], abi: marketplaceAbi, functionName: "owner", args: [] });
}
