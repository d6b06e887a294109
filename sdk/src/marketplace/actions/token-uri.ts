import type { ReadContractReturnType } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkTokenId } from "../validate.ts";

/** Parameters of {@link tokenURI}. */
export interface TokenURIParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The license token's id (1 or more). */
  tokenId: bigint | number;
}

/** What {@link tokenURI} resolves with, typed from the contract's ABI. */
export type TokenURIReturnType = ReadContractReturnType<typeof licenseTokenAbi, "tokenURI">;

/** Errors {@link tokenURI} can throw (each with a stable `code`). */
export type TokenURIErrorType = MarketplaceReadErrorType;

/**
 * The metadata URI of the licensed template.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const uri = await client.tokenURI({ tokenId: 1n });
 * // or, without the decorator:
 * const uri = await tokenURI(client, { addresses, tokenId: 1n });
 */
export async function tokenURI(client: MarketplaceClient, parameters: TokenURIParameters): Promise<TokenURIReturnType> {
  return readMarketplace(client, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "tokenURI", args: [checkTokenId(parameters.tokenId)] });
}
