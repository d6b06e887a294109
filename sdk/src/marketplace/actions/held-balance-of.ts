import type { Address, ReadContractReturnType } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkAddress } from "../validate.ts";

/** Parameters of {@link heldBalanceOf}. */
export interface HeldBalanceOfParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The account whose held balance to read. */
  account: Address;
}

/** What {@link heldBalanceOf} resolves with, typed from the contract's ABI. */
export type HeldBalanceOfReturnType = ReadContractReturnType<typeof marketplaceAbi, "heldBalanceOf">;

/** Errors {@link heldBalanceOf} can throw (each with a stable `code`). */
export type HeldBalanceOfErrorType = MarketplaceReadErrorType;

/**
 * Balance held for `account` because its creator share could not be sent, in wei.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const held = await client.heldBalanceOf({ account: creator });
 * // or, without the decorator:
 * const held = await heldBalanceOf(client, { addresses, account: creator });
 */
export async function heldBalanceOf(client: MarketplaceClient, parameters: HeldBalanceOfParameters): Promise<HeldBalanceOfReturnType> {
  return readMarketplace(client, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "heldBalanceOf", args: [checkAddress("account", parameters.account, { allowZero: true })] });
}
