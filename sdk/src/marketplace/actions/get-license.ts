import type { ReadContractReturnType } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkTokenId } from "../validate.ts";

/** Parameters of {@link getLicense}. */
export interface GetLicenseParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The license token's id (1 or more). */
  tokenId: bigint | number;
}

/** What {@link getLicense} resolves with, typed from the contract's ABI. */
export type GetLicenseReturnType = ReadContractReturnType<typeof licenseTokenAbi, "getLicense">;

/** Errors {@link getLicense} can throw (each with a stable `code`). */
export type GetLicenseErrorType = MarketplaceReadErrorType;

/**
 * The license record of a token: template, original buyer, purchase time, revoked flag.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const { templateId, revoked } = await client.getLicense({ tokenId: 1n });
 * // or, without the decorator:
 * const { templateId, revoked } = await getLicense(client, { addresses, tokenId: 1n });
 */
export async function getLicense(client: MarketplaceClient, parameters: GetLicenseParameters): Promise<GetLicenseReturnType> {
  return readMarketplace(client, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "getLicense", args: [checkTokenId(parameters.tokenId)] });
}
