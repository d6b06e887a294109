import type { Address } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { checkAddress } from "../validate.ts";

/** Parameters of {@link setApprovalForAll}. */
export interface SetApprovalForAllParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The operator. */
  operator: Address;
  /** Whether the operator may transfer all of the caller's tokens. */
  approved: boolean;
}

/** What {@link setApprovalForAll} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type SetApprovalForAllReturnType = WriteReturn<typeof licenseTokenAbi, "setApprovalForAll">;

/** Errors {@link setApprovalForAll} can throw (each with a stable `code`). */
export type SetApprovalForAllErrorType = MarketplaceWriteErrorType;

/**
 * Lets `operator` transfer all of the account's license tokens, or stops it.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.setApprovalForAll({ operator, approved: true });
 * // or, without the decorator:
 * await setApprovalForAll(client, { addresses, operator, approved: true });
 */
export async function setApprovalForAll(client: MarketplaceClient, parameters: SetApprovalForAllParameters): Promise<SetApprovalForAllReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "setApprovalForAll", args: [checkAddress("operator", parameters.operator), parameters.approved] });
}
