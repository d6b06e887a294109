import { isAddress, zeroAddress, type Address } from "viem";
import type { MarketplaceAddresses } from "./deployments.ts";
import { MarketplaceValidationError } from "./errors.ts";

/** Limits the contracts enforce; checked here first so a bad call never costs gas. */
export const MARKETPLACE_LIMITS = {
  maxRoyaltyBps: 1000,
  maxPlatformFeeBps: 1000,
  maxPrice: (1n << 128n) - 1n,
  maxTemplateId: (1n << 48n) - 1n,
} as const;

export function checkAddress(field: string, value: unknown, { allowZero = false } = {}): Address {
  if (typeof value !== "string" || !isAddress(value, { strict: false })) {
    throw new MarketplaceValidationError(field, "must be a 20-byte hex address");
  }
  if (!allowZero && value.toLowerCase() === zeroAddress) throw new MarketplaceValidationError(field, "must not be the zero address");
  return value as Address;
}

/** The three contract addresses, each a non-zero address. */
export function checkMarketplaceAddresses(addresses: MarketplaceAddresses): MarketplaceAddresses {
  return {
    templateRegistry: checkAddress("addresses.templateRegistry", addresses.templateRegistry),
    licenseToken: checkAddress("addresses.licenseToken", addresses.licenseToken),
    marketplace: checkAddress("addresses.marketplace", addresses.marketplace),
  };
}

function toBigInt(field: string, value: unknown): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  throw new MarketplaceValidationError(field, "must be an integer (bigint or safe integer number)");
}

export function checkId(field: string, value: unknown, max = (1n << 256n) - 1n): bigint {
  const id = toBigInt(field, value);
  if (id < 1n || id > max) throw new MarketplaceValidationError(field, `must be between 1 and ${max}`);
  return id;
}

/** A template id: 1 up to the 48-bit id the contracts store. */
export function checkTemplateId(value: unknown): bigint {
  return checkId("templateId", value, MARKETPLACE_LIMITS.maxTemplateId);
}

/** A license token id: 1 or more. */
export function checkTokenId(value: unknown): bigint {
  return checkId("tokenId", value);
}

export function checkWei(field: string, value: unknown, max = (1n << 256n) - 1n): bigint {
  const wei = toBigInt(field, value);
  if (wei < 0n || wei > max) throw new MarketplaceValidationError(field, `must be between 0 and ${max} wei`);
  return wei;
}

export function checkBps(field: string, value: unknown, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > max) {
    throw new MarketplaceValidationError(field, `must be an integer number of basis points between 0 and ${max}`);
  }
  return value;
}

export function checkMetadataURI(value: unknown): string {
  if (typeof value !== "string" || value.length === 0) throw new MarketplaceValidationError("metadataURI", "must be a non-empty string");
  return value;
}
