import type { Address, ReadContractReturnType } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkAddress } from "../validate.ts";

/** Parameters of {@link isApprovedForAll}. */
export interface IsApprovedForAllParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The holder whose tokens to count. */
  owner: Address;
  /** The operator. */
  operator: Address;
}

/** What {@link isApprovedForAll} resolves with, typed from the contract's ABI. */
export type IsApprovedForAllReturnType = ReadContractReturnType<typeof licenseTokenAbi, "isApprovedForAll">;

/** Errors {@link isApprovedForAll} can throw (each with a stable `code`). */
export type IsApprovedForAllErrorType = MarketplaceReadErrorType;

/**
 * Whether `operator` may transfer all of `owner`'s tokens.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const may = await client.isApprovedForAll({ owner, operator });
 * // or, without the decorator:
 * const may = await isApprovedForAll(client, { addresses, owner, operator });
 */
export async function isApprovedForAll(client: MarketplaceClient, parameters: IsApprovedForAllParameters): Promise<IsApprovedForAllReturnType> {
  return readMarketplace(client, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "isApprovedForAll", args: [checkAddress("owner", parameters.owner, { allowZero: true }), checkAddress("operator", parameters.operator, { allowZero: true })] });
}
