import { BaseError, ContractFunctionRevertedError, type ContractErrorName } from "viem";
import type { licenseTokenAbi } from "../abi/license-token.ts";
import type { marketplaceAbi } from "../abi/marketplace.ts";
import type { templateRegistryAbi } from "../abi/template-registry.ts";

/** Name of any custom error the marketplace contracts can revert with (including OpenZeppelin's). */
export type MarketplaceContractErrorName =
  | ContractErrorName<typeof templateRegistryAbi>
  | ContractErrorName<typeof licenseTokenAbi>
  | ContractErrorName<typeof marketplaceAbi>;

/** Stable codes of the SDK's marketplace errors; assert on these, not on messages. */
export type MarketplaceErrorCode =
  | "MARKETPLACE_INVALID_INPUT"
  | "MARKETPLACE_CONTRACT_ERROR"
  | "MARKETPLACE_PRICE_ABOVE_LIMIT"
  | "MARKETPLACE_WALLET_REQUIRED"
  | "MARKETPLACE_DEPLOYMENT_NOT_FOUND"
  | "MARKETPLACE_TRANSACTION_FAILED";

/** Base of every error the marketplace client throws. Keeps the underlying error as `cause`. */
export class MarketplaceError extends Error {
  override name = "MarketplaceError";
  constructor(
    readonly code: MarketplaceErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** An input failed validation before anything was sent. `field` names the offending parameter. */
export class MarketplaceValidationError extends MarketplaceError {
  override name = "MarketplaceValidationError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super("MARKETPLACE_INVALID_INPUT", `${field}: ${message}`);
  }
}

/**
 * A contract reverted with a custom error, decoded by name with its arguments.
 * @example
 * if (e instanceof MarketplaceContractError && e.errorName === "InsufficientPayment") console.log(e.args);
 */
export class MarketplaceContractError extends MarketplaceError {
  override name = "MarketplaceContractError";
  constructor(
    readonly errorName: MarketplaceContractErrorName | "Error" | "Panic" | "Unknown",
    readonly args: readonly unknown[],
    options?: { cause?: unknown },
  ) {
    super("MARKETPLACE_CONTRACT_ERROR", `contract reverted with ${errorName}(${args.map(String).join(", ")})`, options);
  }
}

/** The on-chain price is above the buyer's `maxPrice`: nothing was sent. */
export class MarketplacePriceAboveLimitError extends MarketplaceError {
  override name = "MarketplacePriceAboveLimitError";
  constructor(
    readonly templateId: bigint,
    readonly price: bigint,
    readonly maxPrice: bigint,
  ) {
    super("MARKETPLACE_PRICE_ABOVE_LIMIT", `template ${templateId} costs ${price} wei, above the limit of ${maxPrice}`);
  }
}

/** A write was attempted on a client created without a wallet (or a wallet without an account). */
export class MarketplaceWalletRequiredError extends MarketplaceError {
  override name = "MarketplaceWalletRequiredError";
  constructor() {
    super("MARKETPLACE_WALLET_REQUIRED", "this operation sends a transaction: create the client with a walletClient that has an account");
  }
}

/** No deployment is recorded for the chain. */
export class MarketplaceDeploymentNotFoundError extends MarketplaceError {
  override name = "MarketplaceDeploymentNotFoundError";
  constructor(readonly chainId: number) {
    super("MARKETPLACE_DEPLOYMENT_NOT_FOUND", `no marketplace deployment recorded for chain ${chainId}`);
  }
}

/** The transaction failed for a reason other than a decoded revert (RPC error, mined but reverted, ...). */
export class MarketplaceTransactionError extends MarketplaceError {
  override name = "MarketplaceTransactionError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("MARKETPLACE_TRANSACTION_FAILED", message, options);
  }
}

/** Turns whatever viem threw into a {@link MarketplaceError}, decoding custom errors by name. */
export function toMarketplaceError(error: unknown): MarketplaceError {
  if (error instanceof MarketplaceError) return error;
  if (error instanceof BaseError) {
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) {
      if (reverted.data) {
        return new MarketplaceContractError(
          reverted.data.errorName as MarketplaceContractErrorName,
          reverted.data.args ?? [],
          { cause: error },
        );
      }
      if (reverted.reason !== undefined) return new MarketplaceContractError("Error", [reverted.reason], { cause: error });
      return new MarketplaceContractError("Unknown", [reverted.signature ?? reverted.raw ?? "0x"], { cause: error });
    }
    return new MarketplaceTransactionError(error.shortMessage, { cause: error });
  }
  return new MarketplaceTransactionError(error instanceof Error ? error.message : String(error), { cause: error });
}
