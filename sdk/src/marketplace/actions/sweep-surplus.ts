import type { Address } from "viem";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import type { MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { checkAddress } from "../validate.ts";

/** Parameters of {@link sweepSurplus}. */
export interface SweepSurplusParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The recipient. */
  to: Address;
}

/** What {@link sweepSurplus} resolves with once mined: hash, receipt, decoded events and the function's `result`, typed from the contract's ABI. */
export type SweepSurplusReturnType = WriteReturn<typeof marketplaceAbi, "sweepSurplus">;

/** Errors {@link sweepSurplus} can throw (each with a stable `code`). */
export type SweepSurplusErrorType = MarketplaceWriteErrorType;

/**
 * Owner only: sends `to` the ETH forced into the marketplace without a purchase (its balance beyond fees and held balances).
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * if ((await client.surplus()) > 0n) await client.sweepSurplus({ to: treasury });
 * // or, without the decorator:
 * if ((await client.surplus()) > 0n) await sweepSurplus(client, { addresses, to: treasury });
 */
export async function sweepSurplus(client: MarketplaceClient, parameters: SweepSurplusParameters): Promise<SweepSurplusReturnType> {
  return writeMarketplace(client, parameters.addresses, { address: parameters.addresses.marketplace, abi: marketplaceAbi, functionName: "sweepSurplus", args: [checkAddress("to", parameters.to)] });
}
