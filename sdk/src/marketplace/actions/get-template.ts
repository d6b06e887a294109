import type { ReadContractReturnType } from "viem";
import { templateRegistryAbi } from "../../abi/template-registry.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkTemplateId } from "../validate.ts";

/** Parameters of {@link getTemplate}. */
export interface GetTemplateParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The template's id (1 up to 2^48 - 1). */
  templateId: bigint | number;
}

/** What {@link getTemplate} resolves with, typed from the contract's ABI. */
export type GetTemplateReturnType = ReadContractReturnType<typeof templateRegistryAbi, "getTemplate">;

/** Errors {@link getTemplate} can throw (each with a stable `code`). */
export type GetTemplateErrorType = MarketplaceReadErrorType;

/**
 * Reads a template record; `TemplateNotFound` for an unknown id.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const { price, metadataURI, active } = await client.getTemplate({ templateId: 1n });
 * // or, without the decorator:
 * const { price, metadataURI, active } = await getTemplate(client, { addresses, templateId: 1n });
 */
export async function getTemplate(client: MarketplaceClient, parameters: GetTemplateParameters): Promise<GetTemplateReturnType> {
  return readMarketplace(client, { address: parameters.addresses.templateRegistry, abi: templateRegistryAbi, functionName: "getTemplate", args: [checkTemplateId(parameters.templateId)] });
}
