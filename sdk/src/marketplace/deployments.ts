import type { Address } from "viem";
import { MarketplaceDeploymentNotFoundError, MarketplaceValidationError } from "./errors.ts";
import { checkAddress } from "./validate.ts";

/** Addresses of the three contracts on one chain. */
export interface MarketplaceAddresses {
  templateRegistry: Address;
  licenseToken: Address;
  marketplace: Address;
}

/** One entry of the deployments file (`contracts/deployments.json`), keyed there by chain id. */
export interface MarketplaceDeployment extends MarketplaceAddresses {
  chainId: number;
  blockNumber?: string;
  deployedAt?: string;
}

/** The deployments file: chain id (as a string) to deployment. */
export type MarketplaceDeployments = Record<string, MarketplaceDeployment>;

/**
 * Reads a deployments file written by `npm run deploy:local` (or the Base Sepolia deployment). Node only;
 * in a browser, import the JSON and pass the object instead.
 */
export async function loadMarketplaceDeployments(path: string | URL): Promise<MarketplaceDeployments> {
  // Imported lazily so that bundling the SDK for a browser does not pull in `node:fs`.
  const { readFile } = await import("node:fs/promises");
  const parsed: unknown = JSON.parse(await readFile(path, "utf8"));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new MarketplaceValidationError("deployments", "must be an object keyed by chain id");
  }
  return parsed as MarketplaceDeployments;
}

/** Picks and validates the deployment of `chainId`. */
export function getMarketplaceDeployment(deployments: MarketplaceDeployments, chainId: number): MarketplaceDeployment {
  const entry = deployments[String(chainId)];
  if (!entry) throw new MarketplaceDeploymentNotFoundError(chainId);
  return {
    ...entry,
    chainId,
    templateRegistry: checkAddress("templateRegistry", entry.templateRegistry),
    licenseToken: checkAddress("licenseToken", entry.licenseToken),
    marketplace: checkAddress("marketplace", entry.marketplace),
  };
}
