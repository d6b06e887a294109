import type { Address, ReadContractReturnType } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkAddress, checkTemplateId } from "../validate.ts";

/** Parameters of {@link holdsValidLicense}. */
export interface HoldsValidLicenseParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The account to check. */
  user: Address;
  /** The template's id (1 up to 2^48 - 1). */
  templateId: bigint | number;
}

/** What {@link holdsValidLicense} resolves with, typed from the contract's ABI. */
export type HoldsValidLicenseReturnType = ReadContractReturnType<typeof licenseTokenAbi, "holdsValidLicense">;

/** Errors {@link holdsValidLicense} can throw (each with a stable `code`). */
export type HoldsValidLicenseErrorType = MarketplaceReadErrorType;

/**
 * Whether `user` holds an unrevoked license token for the template (O(1) on chain).
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const ok = await client.holdsValidLicense({ user, templateId: 1n });
 * // or, without the decorator:
 * const ok = await holdsValidLicense(client, { addresses, user, templateId: 1n });
 */
export async function holdsValidLicense(client: MarketplaceClient, parameters: HoldsValidLicenseParameters): Promise<HoldsValidLicenseReturnType> {
  return readMarketplace(client, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "holdsValidLicense", args: [checkAddress("user", parameters.user, { allowZero: true }), checkTemplateId(parameters.templateId)] });
}
