import { BaseError, ContractFunctionRevertedError, decodeErrorResult, type ContractErrorName, type Hex } from "viem";
import { marketplaceSystemAbi } from "./abi.ts";
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
  readonly code: MarketplaceErrorCode;
  constructor(
    code: MarketplaceErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
  }
}

/** An input failed validation before anything was sent. `field` names the offending parameter. */
export class MarketplaceValidationError extends MarketplaceError {
  override name = "MarketplaceValidationError";
  readonly field: string;
  constructor(
    field: string,
    message: string,
  ) {
    super("MARKETPLACE_INVALID_INPUT", `${field}: ${message}`);
    this.field = field;
  }
}

/**
 * A contract reverted with a custom error, decoded by name with its arguments.
 * @example
 * if (e instanceof MarketplaceContractError && e.errorName === "InsufficientPayment") console.log(e.args);
 */
export class MarketplaceContractError extends MarketplaceError {
  override name = "MarketplaceContractError";
  readonly errorName: MarketplaceContractErrorName | "Error" | "Panic" | "Unknown";
  readonly args: readonly unknown[];
  constructor(
    errorName: MarketplaceContractErrorName | "Error" | "Panic" | "Unknown",
    args: readonly unknown[],
    options?: { cause?: unknown },
  ) {
    super("MARKETPLACE_CONTRACT_ERROR", `contract reverted with ${errorName}(${args.map(String).join(", ")})`, options);
    this.errorName = errorName;
    this.args = args;
  }
}

/** The on-chain price is above the buyer's `maxPrice`: nothing was sent. */
export class MarketplacePriceAboveLimitError extends MarketplaceError {
  override name = "MarketplacePriceAboveLimitError";
  readonly templateId: bigint;
  readonly price: bigint;
  readonly maxPrice: bigint;
  constructor(
    templateId: bigint,
    price: bigint,
    maxPrice: bigint,
  ) {
    super("MARKETPLACE_PRICE_ABOVE_LIMIT", `template ${templateId} costs ${price} wei, above the limit of ${maxPrice}`);
    this.templateId = templateId;
    this.price = price;
    this.maxPrice = maxPrice;
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
  readonly chainId: number;
  constructor(chainId: number) {
    super("MARKETPLACE_DEPLOYMENT_NOT_FOUND", `no marketplace deployment recorded for chain ${chainId}`);
    this.chainId = chainId;
  }
}

/** The transaction failed for a reason other than a decoded revert (RPC error, mined but reverted, ...). */
export class MarketplaceTransactionError extends MarketplaceError {
  override name = "MarketplaceTransactionError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("MARKETPLACE_TRANSACTION_FAILED", message, options);
  }
}

/** What a read action can throw: a bad input, a decoded revert, or a transport/RPC failure. */
export type MarketplaceReadErrorType = MarketplaceValidationError | MarketplaceContractError | MarketplaceTransactionError;

/** What a write action can throw: those of a read, and a client without an account. */
export type MarketplaceWriteErrorType = MarketplaceReadErrorType | MarketplaceWalletRequiredError;

/** Turns whatever viem threw into a {@link MarketplaceError}, decoding custom errors by name. */
export function toMarketplaceError(error: unknown): MarketplaceError {
  if (error instanceof MarketplaceError) return error;
  if (error instanceof BaseError) {
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError && reverted.data) {
      return new MarketplaceContractError(reverted.data.errorName as MarketplaceContractErrorName, reverted.data.args ?? [], { cause: error });
    }
    // Not decoded by the call's ABI (an error of another contract, or a node that only reports raw data):
    // find the revert data and decode it against all three contracts.
    const raw = revertDataOf(error);
    if (raw) {
      try {
        const decoded = decodeErrorResult({ abi: marketplaceSystemAbi, data: raw });
        return new MarketplaceContractError(decoded.errorName as MarketplaceContractErrorName, (decoded.args ?? []) as readonly unknown[], { cause: error });
      } catch {
        return new MarketplaceContractError("Unknown", [raw], { cause: error });
      }
    }
    if (reverted instanceof ContractFunctionRevertedError && reverted.reason !== undefined) {
      return new MarketplaceContractError("Error", [reverted.reason], { cause: error });
    }
    return new MarketplaceTransactionError(error.shortMessage, { cause: error });
  }
  return new MarketplaceTransactionError(error instanceof Error ? error.message : String(error), { cause: error });
}

/** The revert data carried somewhere in a viem error chain, if any. */
export function revertDataOf(error: BaseError): Hex | undefined {
  const isData = (v: unknown): v is Hex => typeof v === "string" && /^0x[0-9a-fA-F]{8,}$/.test(v);
  let found: Hex | undefined;
  error.walk((e) => {
    const candidate = e as { raw?: unknown; data?: unknown };
    if (isData(candidate.raw)) found = candidate.raw;
    else if (isData(candidate.data)) found = candidate.data;
    else if (typeof candidate.data === "object" && candidate.data !== null && isData((candidate.data as { data?: unknown }).data)) {
      found = (candidate.data as { data: Hex }).data;
    }
    return found !== undefined;
  });
  if (found) return found;
  // Some nodes (Hardhat's EDR among them) put it only in the message of a failed eth_sendTransaction.
  const match = /return data: (0x[0-9a-fA-F]{8,})/.exec(`${error.details ?? ""} ${error.message}`);
  return match ? (match[1] as Hex) : undefined;
}
