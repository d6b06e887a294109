import { templateRegistryAbi } from "../../abi/template-registry.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { MARKETPLACE_LIMITS, checkMetadataURI, checkTemplateId, checkWei } from "../validate.ts";

/** Parameters of {@link updateTemplate}. */
export interface UpdateTemplateParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The template's id (1 up to 2^48 - 1). */
  templateId: bigint | number;
  /** Where the template's metadata lives (non-empty). */
  metadataURI: string;
  /** Price of a license in wei (0 = free; at most 2^128 - 1). */
  price: bigint;
}

/** What {@link updateTemplate} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type UpdateTemplateReturnType = WriteReturn<typeof templateRegistryAbi, "updateTemplate">;

/** Errors {@link updateTemplate} can throw (each with a stable `code`). */
export type UpdateTemplateErrorType = MarketplaceWriteErrorType;

/**
 * Changes the metadata URI and price of one of the account's active templates (the royalty is fixed).
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.updateTemplate({ templateId: 1n, metadataURI: "ipfs://…/v2.json", price: parseEther("0.02") });
 * // or, without the decorator:
 * await updateTemplate(client, { addresses, templateId: 1n, metadataURI: "ipfs://…/v2.json", price: parseEther("0.02") });
 */
export async function updateTemplate(client: MarketplaceClient, parameters: UpdateTemplateParameters): Promise<UpdateTemplateReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.templateRegistry, abi: templateRegistryAbi, functionName: "updateTemplate", args: [checkTemplateId(parameters.templateId), checkMetadataURI(parameters.metadataURI), checkWei("price", parameters.price, MARKETPLACE_LIMITS.maxPrice)] });
}
