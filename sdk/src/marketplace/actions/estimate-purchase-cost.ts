import { encodeFunctionData, type Account } from "viem";
import { estimateFeesPerGas, estimateGas, getCode } from "viem/actions";
import { estimateL1Fee } from "viem/op-stack";
import { marketplaceAbi } from "../../abi/marketplace.ts";
import { templateRegistryAbi } from "../../abi/template-registry.ts";
import type { MarketplaceAddresses } from "../deployments.ts";
import { MarketplacePriceAboveLimitError, MarketplaceWalletRequiredError, toMarketplaceError, type MarketplaceWriteErrorType } from "../errors.ts";
import type { MarketplaceClient } from "../internal/client.ts";
import { readMarketplace } from "../internal/read.ts";
import { checkTemplateId, checkWei } from "../validate.ts";

/** The OP-stack GasPriceOracle predeploy; a chain without code there has no L1 data fee. */
const GAS_PRICE_ORACLE = "0x420000000000000000000000000000000000000F";

/** Parameters of {@link estimatePurchaseCost}. */
export interface EstimatePurchaseCostParameters {
  /** The three contract addresses (bound once when used through {@link marketplaceActions}). */
  addresses: MarketplaceAddresses;
  /** The template to license. */
  templateId: bigint | number;
  /** The most the buyer agrees to pay, as {@link purchase} takes it (default: the price read now). */
  maxPrice?: bigint;
  /** The buyer, if not the client's account (the estimate simulates its purchase). */
  account?: Account;
}

/** Everything a purchase costs the buyer, in wei, before it is sent. */
export interface EstimatePurchaseCostReturnType {
  /** The template's price: what the contract charges (the excess of the value sent is refunded). */
  price: bigint;
  /** L2 execution gas the purchase needs (`eth_estimateGas`). */
  l2Gas: bigint;
  /** The most the wallet would pay per gas unit (`maxFeePerGas` of the current fee estimate). */
  l2GasPrice: bigint;
  /** `l2Gas * l2GasPrice`: an upper bound of the execution fee. */
  l2Fee: bigint;
  /** The L1 data fee of the signed transaction (OP-stack GasPriceOracle `getL1Fee`); 0 on a chain without one. */
  l1Fee: bigint;
  /** Whether the chain has the OP-stack GasPriceOracle (so `l1Fee` was asked for). */
  opStack: boolean;
  /** `price + l2Fee + l1Fee`: at most this leaves the buyer's account. */
  total: bigint;
}

/**
 * Errors {@link estimatePurchaseCost} can throw: a purchase that would revert (`AlreadyLicensed`,
 * `TemplateInactive`, …) is a {@link MarketplaceContractError}, as it would be for {@link purchase}.
 */
export type EstimatePurchaseCostErrorType = MarketplaceWriteErrorType | MarketplacePriceAboveLimitError;

/**
 * What buying a licence will cost, shown to the buyer before paying: the price, the L2 execution gas and its
 * fee, and on an OP-stack L2 (Base, Optimism) the L1 data fee that every transaction also pays for its bytes.
 * Estimates exactly the call {@link purchase} sends (`purchase(templateId, maxPrice)` with the price as value).
 *
 * @example
 * const client = createWalletClient({ account, chain: baseSepolia, transport: http() }).extend(marketplaceActions(addresses));
 * const cost = await client.estimatePurchaseCost({ templateId: 1n });
 * console.log(`price ${formatEther(cost.price)} + L2 ${formatEther(cost.l2Fee)} + L1 ${formatEther(cost.l1Fee)} ETH`);
 * if (confirm(`Pay at most ${formatEther(cost.total)} ETH?`)) await client.purchase({ templateId: 1n, maxPrice: cost.price });
 */
export async function estimatePurchaseCost(client: MarketplaceClient, parameters: EstimatePurchaseCostParameters): Promise<EstimatePurchaseCostReturnType> {
  const { addresses } = parameters;
  const account = parameters.account ?? client.account;
  if (!account) throw new MarketplaceWalletRequiredError();
  const templateId = checkTemplateId(parameters.templateId);
  const maxPrice = parameters.maxPrice === undefined ? undefined : checkWei("maxPrice", parameters.maxPrice);
  const { price } = await readMarketplace(client, { address: addresses.templateRegistry, abi: templateRegistryAbi, functionName: "getTemplate", args: [templateId] });
  if (maxPrice !== undefined && price > maxPrice) throw new MarketplacePriceAboveLimitError(templateId, price, maxPrice);
  const data = encodeFunctionData({ abi: marketplaceAbi, functionName: "purchase", args: [templateId, maxPrice ?? price] });
  const call = { account, to: addresses.marketplace, data, value: price };
  try {
    const [l2Gas, fees, oracleCode] = await Promise.all([estimateGas(client, call), estimateFeesPerGas(client), getCode(client, { address: GAS_PRICE_ORACLE })]);
    const opStack = oracleCode !== undefined && oracleCode !== "0x";
    const l1Fee = opStack ? await estimateL1Fee(client, { ...call, chain: client.chain ?? null } as never) : 0n;
    const l2GasPrice = fees.maxFeePerGas;
    const l2Fee = l2Gas * l2GasPrice;
    return { price, l2Gas, l2GasPrice, l2Fee, l1Fee, opStack, total: price + l2Fee + l1Fee };
  } catch (error) {
    throw toMarketplaceError(error);
  }
}
