import type { ReadContractReturnType } from "viem";
import { templateRegistryAbi } from "../../abi/template-registry.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkTemplateId } from "../validate.ts";

/** Parameters of {@link royaltyOf}. */
export interface RoyaltyOfParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The template's id (1 up to 2^48 - 1). */
  templateId: bigint | number;
}

/** What {@link royaltyOf} resolves with, typed from the contract's ABI. */
export interface RoyaltyOfReturnType {
  creator: ReadContractReturnType<typeof templateRegistryAbi, "royaltyOf">[0];
  royaltyBps: ReadContractReturnType<typeof templateRegistryAbi, "royaltyOf">[1];
}

/** Errors {@link royaltyOf} can throw (each with a stable `code`). */
export type RoyaltyOfErrorType = MarketplaceReadErrorType;

/**
 * Creator and royalty (basis points) of a template.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const { creator, royaltyBps } = await client.royaltyOf({ templateId: 1n });
 * // or, without the decorator:
 * const { creator, royaltyBps } = await royaltyOf(client, { addresses, templateId: 1n });
 */
export async function royaltyOf(client: MarketplaceClient, parameters: RoyaltyOfParameters): Promise<RoyaltyOfReturnType> {
  const [creator, royaltyBps] = await readMarketplace(client, { address: parameters.addresses.templateRegistry, abi: templateRegistryAbi, functionName: "royaltyOf", args: [checkTemplateId(parameters.templateId)] });
  return { creator, royaltyBps };
}
