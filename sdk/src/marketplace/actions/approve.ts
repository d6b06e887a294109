import type { Address } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { checkAddress, checkTokenId } from "../validate.ts";

/** Parameters of {@link approve}. */
export interface ApproveParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The recipient. */
  to: Address;
  /** The license token's id (1 or more). */
  tokenId: bigint | number;
}

/** What {@link approve} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type ApproveReturnType = WriteReturn<typeof licenseTokenAbi, "approve">;

/** Errors {@link approve} can throw (each with a stable `code`). */
export type ApproveErrorType = MarketplaceWriteErrorType;

/**
 * Lets `to` transfer the token (the zero address clears the approval).
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.approve({ to: operator, tokenId: 1n });
 * // or, without the decorator:
 * await approve(client, { addresses, to: operator, tokenId: 1n });
 */
export async function approve(client: MarketplaceClient, parameters: ApproveParameters): Promise<ApproveReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "approve", args: [checkAddress("to", parameters.to, { allowZero: true }), checkTokenId(parameters.tokenId)] });
}
