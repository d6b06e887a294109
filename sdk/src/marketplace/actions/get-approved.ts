import type { ReadContractReturnType } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkTokenId } from "../validate.ts";

/** Parameters of {@link getApproved}. */
export interface GetApprovedParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The license token's id (1 or more). */
  tokenId: bigint | number;
}

/** What {@link getApproved} resolves with, typed from the contract's ABI. */
export type GetApprovedReturnType = ReadContractReturnType<typeof licenseTokenAbi, "getApproved">;

/** Errors {@link getApproved} can throw (each with a stable `code`). */
export type GetApprovedErrorType = MarketplaceReadErrorType;

/**
 * The account approved for a token, or the zero address.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const approved = await client.getApproved({ tokenId: 1n });
 * // or, without the decorator:
 * const approved = await getApproved(client, { addresses, tokenId: 1n });
 */
export async function getApproved(client: MarketplaceClient, parameters: GetApprovedParameters): Promise<GetApprovedReturnType> {
  return readMarketplace(client, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "getApproved", args: [checkTokenId(parameters.tokenId)] });
}
