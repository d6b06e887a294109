import type { Address, ReadContractReturnType } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkAddress } from "../validate.ts";

/** Parameters of {@link licensesOf}. */
export interface LicensesOfParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The account to check. */
  user: Address;
}

/** What {@link licensesOf} resolves with, typed from the contract's ABI. */
export type LicensesOfReturnType = ReadContractReturnType<typeof licenseTokenAbi, "licensesOf">;

/** Errors {@link licensesOf} can throw (each with a stable `code`). */
export type LicensesOfErrorType = MarketplaceReadErrorType;

/**
 * Template ids `user` holds a valid license for, without duplicates.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const templateIds = await client.licensesOf({ user });
 * // or, without the decorator:
 * const templateIds = await licensesOf(client, { addresses, user });
 */
export async function licensesOf(client: MarketplaceClient, parameters: LicensesOfParameters): Promise<LicensesOfReturnType> {
  return readMarketplace(client, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "licensesOf", args: [checkAddress("user", parameters.user, { allowZero: true })] });
}
