import type { Address } from "viem";
import { templateRegistryAbi } from "../../abi/template-registry.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { checkAddress } from "../validate.ts";

/** Parameters of {@link setMarketplace}. */
export interface SetMarketplaceParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The registry or the license token. */
  contract: "templateRegistry" | "licenseToken";
  /** The marketplace contract to accept calls from. */
  marketplace: Address;
}

/** What {@link setMarketplace} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type SetMarketplaceReturnType = WriteReturn<typeof templateRegistryAbi, "setMarketplace">;

/** Errors {@link setMarketplace} can throw (each with a stable `code`). */
export type SetMarketplaceErrorType = MarketplaceWriteErrorType;

/**
 * Owner only, once: points the registry or the license token at the marketplace (a second call reverts with `MarketplaceAlreadySet`).
 * Both contracts share `MarketplaceBound`'s functions, so the registry ABI types the call on either.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * await client.setMarketplace({ contract: "templateRegistry", marketplace });
 * // or, without the decorator:
 * await setMarketplace(client, { addresses, contract: "templateRegistry", marketplace });
 */
export async function setMarketplace(client: MarketplaceClient, parameters: SetMarketplaceParameters): Promise<SetMarketplaceReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses[parameters.contract], abi: templateRegistryAbi, functionName: "setMarketplace", args: [checkAddress("marketplace", parameters.marketplace)] });
}
