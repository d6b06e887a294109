import type { Address, ReadContractReturnType } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkAddress } from "../validate.ts";

/** Parameters of {@link balanceOf}. */
export interface BalanceOfParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The holder whose tokens to count. */
  owner: Address;
}

/** What {@link balanceOf} resolves with, typed from the contract's ABI. */
export type BalanceOfReturnType = ReadContractReturnType<typeof licenseTokenAbi, "balanceOf">;

/** Errors {@link balanceOf} can throw (each with a stable `code`). */
export type BalanceOfErrorType = MarketplaceReadErrorType;

/**
 * Number of license tokens `owner` holds (revoked ones included).
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const tokens = await client.balanceOf({ owner });
 * // or, without the decorator:
 * const tokens = await balanceOf(client, { addresses, owner });
 */
export async function balanceOf(client: MarketplaceClient, parameters: BalanceOfParameters): Promise<BalanceOfReturnType> {
  return readMarketplace(client, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "balanceOf", args: [checkAddress("owner", parameters.owner)] });
}
