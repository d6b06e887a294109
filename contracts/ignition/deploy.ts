import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChainType, NetworkConnection } from "hardhat/types/network";
import MusterMarketplace from "./modules/MusterMarketplace.ts";

/** Addresses of one deployment, as stored per chain id in `contracts/deployments.json`. */
export interface DeploymentRecord {
  chainId: number;
  templateRegistry: `0x${string}`;
  licenseToken: `0x${string}`;
  marketplace: `0x${string}`;
  blockNumber: string;
  deployedAt: string;
}

export const DEPLOYMENTS_FILE = new URL("../deployments.json", import.meta.url).pathname;
const IGNITION_DIR = new URL(".", import.meta.url).pathname;

export interface DeployOptions {
  /** Ignition deployment id (its journal lives in contracts/ignition/deployments/<id>). */
  deploymentId?: string;
  /** Start from a clean journal: right for a `hardhat node`, whose chain does not outlive the process. */
  freshJournal?: boolean;
  /** Where to record the addresses; `false` to skip. */
  deploymentsFile?: string | false;
}

/** Deploys and wires the three contracts with the Ignition module, then records their addresses. */
export async function deployMusterMarketplace<ChainTypeT extends ChainType | string>(
  connection: NetworkConnection<ChainTypeT>,
  options: DeployOptions = {},
): Promise<DeploymentRecord> {
  const publicClient = await connection.viem.getPublicClient();
  const chainId = await publicClient.getChainId();
  const deploymentId = options.deploymentId ?? `chain-${chainId}`;
  if (options.freshJournal) rmSync(join(IGNITION_DIR, "deployments", deploymentId), { recursive: true, force: true });

  // Ignition types the result from generated artifact types, which tsc does not see here.
  const deployed = (await connection.ignition.deploy(MusterMarketplace, { deploymentId })) as unknown as Record<
    "registry" | "licenseToken" | "marketplace",
    { address: `0x${string}` }
  >;
  const { registry, licenseToken, marketplace } = deployed;
  const record: DeploymentRecord = {
    chainId,
    templateRegistry: registry.address,
    licenseToken: licenseToken.address,
    marketplace: marketplace.address,
    blockNumber: (await publicClient.getBlockNumber()).toString(),
    deployedAt: new Date().toISOString(),
  };
  const file = options.deploymentsFile ?? DEPLOYMENTS_FILE;
  if (file !== false) recordDeployment(file, record);
  return record;
}

/** Merges `record` into the deployments file under its chain id. */
export function recordDeployment(file: string, record: DeploymentRecord): void {
  const all: Record<string, DeploymentRecord> = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  all[String(record.chainId)] = record;
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}
