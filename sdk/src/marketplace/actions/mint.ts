import type { Address } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { checkAddress, checkTemplateId } from "../validate.ts";

/** Parameters of {@link mint}. */
export interface MintParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The recipient. */
  to: Address;
  /** The template's id (1 up to 2^48 - 1). */
  templateId: bigint | number;
}

/** What {@link mint} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type MintReturnType = WriteReturn<typeof licenseTokenAbi, "mint">;

/** Errors {@link mint} can throw (each with a stable `code`). */
export type MintErrorType = MarketplaceWriteErrorType;

/**
 * Marketplace only: mints a license. Exposed for completeness; any other caller gets `NotMarketplace`.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.mint({ to, templateId: 1n }); // MarketplaceContractError "NotMarketplace"
 * // or, without the decorator:
 * await mint(client, { addresses, to, templateId: 1n }); // MarketplaceContractError "NotMarketplace"
 */
export async function mint(client: MarketplaceClient, parameters: MintParameters): Promise<MintReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "mint", args: [checkAddress("to", parameters.to), checkTemplateId(parameters.templateId)] });
}
