import type { Address, ReadContractReturnType } from "viem";
import { templateRegistryAbi } from "../../abi/template-registry.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkAddress } from "../validate.ts";

/** Parameters of {@link getTemplatesByCreator}. */
export interface GetTemplatesByCreatorParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The creator whose templates to list. */
  creator: Address;
}

/** What {@link getTemplatesByCreator} resolves with, typed from the contract's ABI. */
export type GetTemplatesByCreatorReturnType = ReadContractReturnType<typeof templateRegistryAbi, "getTemplatesByCreator">;

/** Errors {@link getTemplatesByCreator} can throw (each with a stable `code`). */
export type GetTemplatesByCreatorErrorType = MarketplaceReadErrorType;

/**
 * Ids of the templates `creator` registered, oldest first.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const ids = await client.getTemplatesByCreator({ creator: "0x…" });
 * // or, without the decorator:
 * const ids = await getTemplatesByCreator(client, { addresses, creator: "0x…" });
 */
export async function getTemplatesByCreator(client: MarketplaceClient, parameters: GetTemplatesByCreatorParameters): Promise<GetTemplatesByCreatorReturnType> {
  return readMarketplace(client, { address: parameters.addresses.templateRegistry, abi: templateRegistryAbi, functionName: "getTemplatesByCreator", args: [checkAddress("creator", parameters.creator, { allowZero: true })] });
}
