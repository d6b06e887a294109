import { templateRegistryAbi } from "../../abi/template-registry.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { MARKETPLACE_LIMITS, checkBps, checkMetadataURI, checkWei } from "../validate.ts";

/** Parameters of {@link registerTemplate}. */
export interface RegisterTemplateParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** Where the template's metadata lives (non-empty). */
  metadataURI: string;
  /** Price of a license in wei (0 = free; at most 2^128 - 1). */
  price: bigint;
  /** ERC-2981 royalty on resales, in basis points (at most 1000). */
  royaltyBps: number;
}

/** What {@link registerTemplate} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type RegisterTemplateReturnType = WriteReturn<typeof templateRegistryAbi, "registerTemplate">;

/** Errors {@link registerTemplate} can throw (each with a stable `code`). */
export type RegisterTemplateErrorType = MarketplaceWriteErrorType;

/**
 * Publishes a template owned by the client's account; `result` is the new template id.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const { result: templateId } = await client.registerTemplate({ metadataURI: "ipfs://…/template.json", price: parseEther("0.01"), royaltyBps: 500 });
 * // or, without the decorator:
 * const { result: templateId } = await registerTemplate(client, { addresses, metadataURI: "ipfs://…/template.json", price: parseEther("0.01"), royaltyBps: 500 });
 */
export async function registerTemplate(client: MarketplaceClient, parameters: RegisterTemplateParameters): Promise<RegisterTemplateReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.templateRegistry, abi: templateRegistryAbi, functionName: "registerTemplate", args: [checkMetadataURI(parameters.metadataURI), checkWei("price", parameters.price, MARKETPLACE_LIMITS.maxPrice), checkBps("royaltyBps", parameters.royaltyBps, MARKETPLACE_LIMITS.maxRoyaltyBps)] });
}
