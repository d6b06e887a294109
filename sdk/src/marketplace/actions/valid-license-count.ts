import type { Address, ReadContractReturnType } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkAddress, checkTemplateId } from "../validate.ts";

/** Parameters of {@link validLicenseCount}. */
export interface ValidLicenseCountParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The account to check. */
  user: Address;
  /** The template's id (1 up to 2^48 - 1). */
  templateId: bigint | number;
}

/** What {@link validLicenseCount} resolves with, typed from the contract's ABI. */
export type ValidLicenseCountReturnType = ReadContractReturnType<typeof licenseTokenAbi, "validLicenseCount">;

/** Errors {@link validLicenseCount} can throw (each with a stable `code`). */
export type ValidLicenseCountErrorType = MarketplaceReadErrorType;

/**
 * Number of unrevoked license tokens for the template that `user` holds.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const n = await client.validLicenseCount({ user, templateId: 1n });
 * // or, without the decorator:
 * const n = await validLicenseCount(client, { addresses, user, templateId: 1n });
 */
export async function validLicenseCount(client: MarketplaceClient, parameters: ValidLicenseCountParameters): Promise<ValidLicenseCountReturnType> {
  return readMarketplace(client, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "validLicenseCount", args: [checkAddress("user", parameters.user, { allowZero: true }), checkTemplateId(parameters.templateId)] });
}
