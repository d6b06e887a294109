import { marketplaceAbi } from "../../abi/marketplace.ts";
import { templateRegistryAbi } from "../../abi/template-registry.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import { MarketplacePriceAboveLimitError, MarketplaceValidationError, type MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { writeMarketplace, type WriteReturn } from "../internal/write.ts";
import { checkTemplateId, checkWei } from "../validate.ts";

/** Parameters of {@link purchase}. */
export interface PurchaseParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The template to license (1 up to 2^48 - 1). */
  templateId: bigint | number;
  /**
   * The most the buyer agrees to pay, in wei. Checked before sending (the price read now) and by the contract
   * (the price when the transaction is mined, `PriceAboveMax`). Defaults to the price read now, so a price
   * raised before the purchase is mined reverts instead of costing more.
   */
  maxPrice?: bigint;
  /** Value to send, in wei (default: the price read now). The excess is refunded; at most `maxPrice`. */
  value?: bigint;
}

/** What {@link purchase} resolves with once mined; `result` is the license token id, typed from the ABI. */
export type PurchaseReturnType = WriteReturn<typeof marketplaceAbi, "purchase">;

/**
 * Errors {@link purchase} can throw: those of every write, and {@link MarketplacePriceAboveLimitError} when the
 * template costs more than `maxPrice` before anything is sent.
 */
export type PurchaseErrorType = MarketplaceWriteErrorType | MarketplacePriceAboveLimitError;

/**
 * Buys a license for a template: reads its price, refuses before sending if it is above `maxPrice`, then calls
 * `purchase(templateId, maxPrice)` so the contract refuses a price raised meanwhile (`PriceAboveMax`).
 * Exactly the price is charged; any excess sent is refunded.
 *
 * Why the overload and not the spec's `purchase(templateId)`: the contract reads the price when the transaction
 * is mined, and the spec's form charges whatever it is then, up to the value sent. Sending more than the price
 * (or sending it after a creator raised it) could then cost more than the buyer saw. With `maxPrice` the buyer
 * never pays more than the price it agreed to. Both forms emit the same `Purchased` event. Call the spec's form
 * with viem directly (`functionName: "purchase", args: [templateId]`) if you need it.
 *
 * @example
 * const client = createWalletClient({ account, chain, transport: http() }).extend(marketplaceActions(addresses));
 * const { result: tokenId } = await client.purchase({ templateId: 1n, maxPrice: parseEther("0.01") });
 * // or, without the decorator:
 * const { result: tokenId } = await purchase(client, { addresses, templateId: 1n, maxPrice: parseEther("0.01") });
 */
export async function purchase(client: MarketplaceClient, parameters: PurchaseParameters): Promise<PurchaseReturnType> {
  const { addresses } = parameters;
  const templateId = checkTemplateId(parameters.templateId);
  const maxPrice = parameters.maxPrice === undefined ? undefined : checkWei("maxPrice", parameters.maxPrice);
  const value = parameters.value === undefined ? undefined : checkWei("value", parameters.value);
  if (maxPrice !== undefined && value !== undefined && value > maxPrice) {
    throw new MarketplaceValidationError("value", `must not exceed maxPrice (${maxPrice} wei): a purchase never needs more than its limit`);
  }
  const { price } = await readMarketplace(client, {
    address: addresses.templateRegistry,
    abi: templateRegistryAbi,
    functionName: "getTemplate",
    args: [templateId],
  });
  if (maxPrice !== undefined && price > maxPrice) throw new MarketplacePriceAboveLimitError(templateId, price, maxPrice);
  // `value` is sent as given: below the price the simulation fails with `InsufficientPayment`.
  return writeMarketplace(client, addresses, {
    address: addresses.marketplace,
    abi: marketplaceAbi,
    functionName: "purchase",
    args: [templateId, maxPrice ?? price],
    value: value ?? price,
  });
}
