import type { Address } from "viem";
import { templateRegistryAbi } from "../../abi/template-registry.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { checkAddress, checkTemplateId } from "../validate.ts";

/** Parameters of {@link recordInstall}. */
export interface RecordInstallParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The template's id (1 up to 2^48 - 1). */
  templateId: bigint | number;
  /** The buyer whose install is counted. */
  buyer: Address;
}

/** What {@link recordInstall} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type RecordInstallReturnType = WriteReturn<typeof templateRegistryAbi, "recordInstall">;

/** Errors {@link recordInstall} can throw (each with a stable `code`). */
export type RecordInstallErrorType = MarketplaceWriteErrorType;

/**
 * Marketplace only: counts an install. Exposed for completeness; any other caller gets `NotMarketplace`.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.recordInstall({ templateId: 1n, buyer }); // MarketplaceContractError "NotMarketplace"
 * // or, without the decorator:
 * await recordInstall(client, { addresses, templateId: 1n, buyer }); // MarketplaceContractError "NotMarketplace"
 */
export async function recordInstall(client: MarketplaceClient, parameters: RecordInstallParameters): Promise<RecordInstallReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.templateRegistry, abi: templateRegistryAbi, functionName: "recordInstall", args: [checkTemplateId(parameters.templateId), checkAddress("buyer", parameters.buyer)] });
}
