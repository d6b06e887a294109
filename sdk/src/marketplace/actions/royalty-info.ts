import type { ReadContractReturnType } from "viem";
import { licenseTokenAbi } from "../../abi/license-token.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceReadErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkTokenId, checkWei } from "../validate.ts";

/** Parameters of {@link royaltyInfo}. */
export interface RoyaltyInfoParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The license token's id (1 or more). */
  tokenId: bigint | number;
  /** The resale price, in wei. */
  salePrice: bigint;
}

/** What {@link royaltyInfo} resolves with, typed from the contract's ABI. */
export interface RoyaltyInfoReturnType {
  receiver: ReadContractReturnType<typeof licenseTokenAbi, "royaltyInfo">[0];
  amount: ReadContractReturnType<typeof licenseTokenAbi, "royaltyInfo">[1];
}

/** Errors {@link royaltyInfo} can throw (each with a stable `code`). */
export type RoyaltyInfoErrorType = MarketplaceReadErrorType;

/**
 * ERC-2981: who receives a royalty on a resale of the token at `salePrice`, and how much.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const { receiver, amount } = await client.royaltyInfo({ tokenId: 1n, salePrice: parseEther("1") });
 * // or, without the decorator:
 * const { receiver, amount } = await royaltyInfo(client, { addresses, tokenId: 1n, salePrice: parseEther("1") });
 */
export async function royaltyInfo(client: MarketplaceClient, parameters: RoyaltyInfoParameters): Promise<RoyaltyInfoReturnType> {
  const [receiver, amount] = await readMarketplace(client, { address: parameters.addresses.licenseToken, abi: licenseTokenAbi, functionName: "royaltyInfo", args: [checkTokenId(parameters.tokenId), checkWei("salePrice", parameters.salePrice)] });
  return { receiver, amount };
}
