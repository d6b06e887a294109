import { templateRegistryAbi } from "../../abi/template-registry.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { checkTemplateId } from "../validate.ts";

/** Parameters of {@link deactivateTemplate}. */
export interface DeactivateTemplateParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The template's id (1 up to 2^48 - 1). */
  templateId: bigint | number;
}

/** What {@link deactivateTemplate} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type DeactivateTemplateReturnType = WriteReturn<typeof templateRegistryAbi, "deactivateTemplate">;

/** Errors {@link deactivateTemplate} can throw (each with a stable `code`). */
export type DeactivateTemplateErrorType = MarketplaceWriteErrorType;

/**
 * Deactivates one of the account's templates for good; licenses already sold stay valid.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.deactivateTemplate({ templateId: 1n });
 * // or, without the decorator:
 * await deactivateTemplate(client, { addresses, templateId: 1n });
 */
export async function deactivateTemplate(client: MarketplaceClient, parameters: DeactivateTemplateParameters): Promise<DeactivateTemplateReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.templateRegistry, abi: templateRegistryAbi, functionName: "deactivateTemplate", args: [checkTemplateId(parameters.templateId)] });
}
