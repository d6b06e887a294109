import type { Address, ReadContractReturnType } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkAddress, checkTemplateId } from "../validate.ts";

/** Parameters of {@link hasLicense}. */
export interface HasLicenseParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The account to check. */
  user: Address;
  /** The template's id (1 up to 2^48 - 1). */
  templateId: bigint | number;
}

/** What {@link hasLicense} resolves with, typed from the contract's ABI. */
export type HasLicenseReturnType = ReadContractReturnType<typeof marketplaceAbi, "hasLicense">;

/** Errors {@link hasLicense} can throw (each with a stable `code`). */
export type HasLicenseErrorType = MarketplaceReadErrorType;

/**
 * Whether `user` holds a valid license for the template.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const licensed = await client.hasLicense({ user: account.address, templateId: 1n });
 * // or, without the decorator:
 * const licensed = await hasLicense(client, { addresses, user: account.address, templateId: 1n });
 */
export async function hasLicense(client: MarketplaceClient, parameters: HasLicenseParameters): Promise<HasLicenseReturnType> {
  return readMarketplace(client, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "hasLicense", args: [checkAddress("user", parameters.user, { allowZero: true }), checkTemplateId(parameters.templateId)] });
}
