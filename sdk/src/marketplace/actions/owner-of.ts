import type { ReadContractReturnType } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkTokenId } from "../validate.ts";

/** Parameters of {@link ownerOf}. */
export interface OwnerOfParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The license token's id (1 or more). */
  tokenId: bigint | number;
}

/** What {@link ownerOf} resolves with, typed from the contract's ABI. */
export type OwnerOfReturnType = ReadContractReturnType<typeof licenseTokenAbi, "ownerOf">;

/** Errors {@link ownerOf} can throw (each with a stable `code`). */
export type OwnerOfErrorType = MarketplaceReadErrorType;

/**
 * The holder of a license token.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const holder = await client.ownerOf({ tokenId: 1n });
 * // or, without the decorator:
 * const holder = await ownerOf(client, { addresses, tokenId: 1n });
 */
export async function ownerOf(client: MarketplaceClient, parameters: OwnerOfParameters): Promise<OwnerOfReturnType> {
  return readMarketplace(client, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "ownerOf", args: [checkTokenId(parameters.tokenId)] });
}
