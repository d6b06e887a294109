import type { ReadContractReturnType } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";

/** Parameters of {@link totalMinted}. */
export interface TotalMintedParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
}

/** What {@link totalMinted} resolves with, typed from the contract's ABI. */
export type TotalMintedReturnType = ReadContractReturnType<typeof licenseTokenAbi, "totalMinted">;

/** Errors {@link totalMinted} can throw (each with a stable `code`). */
export type TotalMintedErrorType = MarketplaceReadErrorType;

/**
 * Number of license tokens minted (also the highest token id).
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const minted = await client.totalMinted();
 * // or, without the decorator:
 * const minted = await totalMinted(client, { addresses });
 */
export async function totalMinted(client: MarketplaceClient, parameters: TotalMintedParameters): Promise<TotalMintedReturnType> {
  return readMarketplace(client, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "totalMinted", args: [] });
}
