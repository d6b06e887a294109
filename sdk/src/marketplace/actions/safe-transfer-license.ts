import type { Address, Hex } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { checkAddress, checkTokenId } from "../validate.ts";

/** Parameters of {@link safeTransferLicense}. */
export interface SafeTransferLicenseParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The current holder. */
  from: Address;
  /** The recipient. */
  to: Address;
  /** The license token's id (1 or more). */
  tokenId: bigint | number;
  /** Data passed to the recipient's `onERC721Received` (default `0x`). */
  data?: Hex;
}

/** What {@link safeTransferLicense} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type SafeTransferLicenseReturnType = WriteReturn<typeof licenseTokenAbi, "safeTransferFrom">;

/** Errors {@link safeTransferLicense} can throw (each with a stable `code`). */
export type SafeTransferLicenseErrorType = MarketplaceWriteErrorType;

/**
 * Like {@link transferLicense}, then checks that a contract recipient accepts ERC-721 tokens.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.safeTransferLicense({ from: account.address, to: vault, tokenId: 1n });
 * // or, without the decorator:
 * await safeTransferLicense(client, { addresses, from: account.address, to: vault, tokenId: 1n });
 */
export async function safeTransferLicense(client: MarketplaceClient, parameters: SafeTransferLicenseParameters): Promise<SafeTransferLicenseReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "safeTransferFrom", args: [checkAddress("from", parameters.from), checkAddress("to", parameters.to), checkTokenId(parameters.tokenId), parameters.data ?? "0x"] });
}
