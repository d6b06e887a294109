import type { Address } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { checkAddress, checkTokenId } from "../validate.ts";

/** Parameters of {@link transferLicense}. */
export interface TransferLicenseParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The current holder. */
  from: Address;
  /** The recipient. */
  to: Address;
  /** The license token's id (1 or more). */
  tokenId: bigint | number;
}

/** What {@link transferLicense} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type TransferLicenseReturnType = WriteReturn<typeof licenseTokenAbi, "transferFrom">;

/** Errors {@link transferLicense} can throw (each with a stable `code`). */
export type TransferLicenseErrorType = MarketplaceWriteErrorType;

/**
 * Moves a license token, and the license it carries, from `from` to `to` (ERC-721 `transferFrom`).
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.transferLicense({ from: account.address, to: friend, tokenId: 1n });
 * // or, without the decorator:
 * await transferLicense(client, { addresses, from: account.address, to: friend, tokenId: 1n });
 */
export async function transferLicense(client: MarketplaceClient, parameters: TransferLicenseParameters): Promise<TransferLicenseReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "transferFrom", args: [checkAddress("from", parameters.from), checkAddress("to", parameters.to), checkTokenId(parameters.tokenId)] });
}
