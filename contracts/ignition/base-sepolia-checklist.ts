// The offline half of the Base Sepolia deployment (docs/marketplace.md, "Base Sepolia"): everything up to the
// network call, without one. Checks that the configuration variables resolve (names only; no value printed
// but the deployer's address), then deploys the Ignition module to an in-process OP-stack simulation with Base
// Sepolia's chain id, funded for the configured key, and prints what it cost (L2 execution + L1 data fee at the
// simulation's prices) and the commands that do the real deployment and verification.
//   npx hardhat build --no-tests && node --import tsx contracts/ignition/base-sepolia-checklist.ts
import { rmSync } from "node:fs";
import { join } from "node:path";
import hre, { network } from "hardhat";
import { formatEther, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { setSimulatedL1FeeParams } from "../op-stack/l1-fee-params.ts";
import { deployMusterMarketplace } from "./deploy.ts";

const BASE_SEPOLIA_CHAIN_ID = 84532;
const DRY_RUN_ID = "base-sepolia-dry-run";
const step = (n: number, text: string) => console.log(`[${n}] ${text}`);

const config = hre.config.networks.baseSepolia;
if (!config || config.type !== "http" || config.chainType !== "op" || config.chainId !== BASE_SEPOLIA_CHAIN_ID) {
  throw new Error("hardhat.config.ts must define baseSepolia as an http network of chainType op with chainId 84532");
}
// Resolving reads the keystore (or the environment variable of the same name); nothing is sent anywhere.
const url = await config.url.getUrl();
if (!/^https?:\/\//.test(url)) throw new Error("BASE_SEPOLIA_RPC_URL must be an http(s) URL");
step(1, "BASE_SEPOLIA_RPC_URL resolves to an http(s) URL (not printed)");
if (!Array.isArray(config.accounts) || config.accounts.length !== 1) throw new Error("baseSepolia must name one account: BASE_SEPOLIA_PRIVATE_KEY");
const key = (await config.accounts[0]!.getHexString()) as `0x${string}`;
const deployer = privateKeyToAccount(key).address;
step(2, `BASE_SEPOLIA_PRIVATE_KEY resolves; the deployer is ${deployer}`);
const hasEtherscanKey = await hre.config.verify.etherscan.apiKey.get().then(() => true, () => false);
step(3, hasEtherscanKey ? "ETHERSCAN_API_KEY resolves (verification on Basescan through Etherscan's API v2)" : "ETHERSCAN_API_KEY is not set: set it before verifying (npx hardhat keystore set ETHERSCAN_API_KEY)");

const dryRun = await network.create({ network: "baseSepoliaDryRun", override: { accounts: [{ privateKey: key, balance: parseEther("10").toString() }] } });
try {
  await setSimulatedL1FeeParams(dryRun.provider);
  const publicClient = await dryRun.viem.getPublicClient();
  const before = await publicClient.getBalance({ address: deployer });
  const record = await deployMusterMarketplace(dryRun, { deploymentId: DRY_RUN_ID, freshJournal: true, deploymentsFile: false });
  const cost = before - (await publicClient.getBalance({ address: deployer }));
  if (record.chainId !== BASE_SEPOLIA_CHAIN_ID) throw new Error(`the dry run ran on chain ${record.chainId}`);
  step(4, `dry run on an OP-stack simulation of chain ${record.chainId}: registry ${record.templateRegistry}, licence token ${record.licenseToken}, marketplace ${record.marketplace}; the deployer paid ${formatEther(cost)} ETH (L2 gas + L1 data fee at simulated prices; fund it with more on Base Sepolia)`);
} finally {
  await dryRun.close();
  rmSync(join(import.meta.dirname, "deployments", DRY_RUN_ID), { recursive: true, force: true });
}
step(5, "the network call (not made here): node --import tsx scripts/deploy-local.ts --network baseSepolia --record");
step(6, "then verify: npx hardhat ignition verify chain-84532, and commit contracts/deployments.json");
console.log("offline checklist passed");
