import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { checkTokenId } from "../validate.ts";

/** Parameters of {@link revokeLicense}. */
export interface RevokeLicenseParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The license token's id (1 or more). */
  tokenId: bigint | number;
}

/** What {@link revokeLicense} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type RevokeLicenseReturnType = WriteReturn<typeof licenseTokenAbi, "revokeLicense">;

/** Errors {@link revokeLicense} can throw (each with a stable `code`). */
export type RevokeLicenseErrorType = MarketplaceWriteErrorType;

/**
 * Owner only: revokes a license token; its holder loses the license and the token is frozen.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.revokeLicense({ tokenId: 1n });
 * // or, without the decorator:
 * await revokeLicense(client, { addresses, tokenId: 1n });
 */
export async function revokeLicense(client: MarketplaceClient, parameters: RevokeLicenseParameters): Promise<RevokeLicenseReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "revokeLicense", args: [checkTokenId(parameters.tokenId)] });
}
