// Shared setup for the contract suites: Hardhat's in-process network, the three contracts deployed and
// wired, typed viem contract handles, and revert/event assertions that decode errors of all three contracts.
import assert from "node:assert/strict";
import { network } from "hardhat";
import {
  getContract,
  parseEventLogs,
  type Abi,
  type Address,
  type Hash,
  type Log,
} from "viem";
import { licenseTokenAbi } from "../../../sdk/src/abi/license-token.ts";
import { marketplaceAbi } from "../../../sdk/src/abi/marketplace.ts";
import { templateRegistryAbi } from "../../../sdk/src/abi/template-registry.ts";
import { marketplaceSystemAbi } from "../../../sdk/src/marketplace/abi.ts";
import { MarketplaceContractError, toMarketplaceError } from "../../../sdk/src/marketplace/errors.ts";
import { buildContracts } from "./build-lock.ts";

export const URI = "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/template.json";

/**
 * The chain type the contract suites run on: Hardhat's L1 simulation by default, its OP-stack simulation with
 * `MUSTER_CHAIN_TYPE=op` (`MUSTER_CHAIN_TYPE=op npm test -- test/contracts`); op-stack.test.ts always uses op.
 */
export const CHAIN_TYPE: "l1" | "op" = process.env.MUSTER_CHAIN_TYPE === "op" ? "op" : "l1";

/** Compiles (once at a time across processes) and opens a fresh in-process network. */
export async function openNetwork(chainType: "l1" | "op" = CHAIN_TYPE) {
  await buildContracts();
  const connection = await network.create({ chainType });
  const { viem, networkHelpers } = connection;
  const publicClient = await viem.getPublicClient();
  const wallets = await viem.getWalletClients();
  if (wallets.length < 8) throw new Error("need 8 accounts");
  return { connection, viem, networkHelpers, publicClient, wallets };
}

export type Net = Awaited<ReturnType<typeof openNetwork>>;
export type Wallet = Net["wallets"][number];

/** Deploys `name` and returns its address. */
export async function deploy(net: Net, name: string, args: unknown[], from?: Wallet): Promise<Address> {
  const contract = await net.viem.deployContract(name, args, from ? { client: { wallet: from } } : {});
  return contract.address;
}

export function registryAt(net: Net, address: Address) {
  return getContract({ address, abi: templateRegistryAbi, client: { public: net.publicClient } });
}
export function licenseAt(net: Net, address: Address) {
  return getContract({ address, abi: licenseTokenAbi, client: { public: net.publicClient } });
}
export function marketAt(net: Net, address: Address) {
  return getContract({ address, abi: marketplaceAbi, client: { public: net.publicClient } });
}

/** Sends a contract call from `from`, waits for it, and returns the receipt with decoded events. */
export async function send(
  net: Net,
  from: Wallet,
  address: Address,
  abi: Abi,
  functionName: string,
  args: readonly unknown[] = [],
  value?: bigint,
) {
  const hash: Hash = await from.writeContract({
    address,
    abi,
    functionName,
    args,
    account: from.account,
    chain: null,
    ...(value !== undefined ? { value } : {}),
  } as never);
  const receipt = await net.publicClient.waitForTransactionReceipt({ hash });
  assert.equal(receipt.status, "success", `${functionName} mined but reverted`);
  return { receipt, events: decodeEvents(receipt.logs) };
}

export function decodeEvents(logs: readonly Log[]) {
  return parseEventLogs({ abi: marketplaceSystemAbi, logs: logs as Log[] }).map((l) => ({
    address: l.address,
    eventName: l.eventName,
    args: l.args as unknown as Record<string, unknown>,
  }));
}

/** Asserts that the events include `eventName` with (at least) `args`, optionally at `address`. */
export function expectEvent(
  events: ReturnType<typeof decodeEvents>,
  eventName: string,
  args: Record<string, unknown> = {},
  address?: Address,
) {
  const match = events.find(
    (e) =>
      e.eventName === eventName &&
      (!address || e.address.toLowerCase() === address.toLowerCase()) &&
      Object.entries(args).every(([k, v]) => sameValue(e.args[k], v)),
  );
  assert.ok(match, `expected event ${eventName}(${JSON.stringify(args, big)}) in ${JSON.stringify(events, big)}`);
}

/** Asserts that `promise` rejects with the custom error `errorName` (and `args`, when given). */
export async function expectRevert(promise: Promise<unknown>, errorName: string, args?: readonly unknown[]) {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected a revert with ${errorName}, but the call succeeded`);
  const decoded = decodeRevert(error);
  assert.equal(decoded.errorName, errorName, `expected ${errorName}, got ${decoded.errorName}(${String(decoded.args)})`);
  if (args) {
    assert.equal(decoded.args.length, args.length, `argument count of ${errorName}`);
    args.forEach((a, i) => assert.ok(sameValue(decoded.args[i], a), `${errorName} arg ${i}: expected ${String(a)}, got ${String(decoded.args[i])}`));
  }
}

function decodeRevert(error: unknown): { errorName: string; args: readonly unknown[] } {
  const decoded = toMarketplaceError(error);
  if (!(decoded instanceof MarketplaceContractError)) throw error;
  return { errorName: decoded.errorName, args: decoded.args };
}

function sameValue(actual: unknown, expected: unknown): boolean {
  if (typeof actual === "string" && typeof expected === "string") return actual.toLowerCase() === expected.toLowerCase();
  if (typeof expected === "number" && typeof actual === "bigint") return actual === BigInt(expected);
  if (typeof expected === "bigint" && typeof actual === "number") return BigInt(actual) === expected;
  return actual === expected;
}

const big = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);

/** Deploys registry, license token and marketplace owned by `owner`, wired together. */
export async function deploySystem(net: Net, owner: Wallet) {
  const registry = await deploy(net, "TemplateRegistry", [owner.account.address], owner);
  const license = await deploy(net, "LicenseToken", [registry, owner.account.address], owner);
  const market = await deploy(net, "Marketplace", [registry, license, owner.account.address], owner);
  await send(net, owner, registry, templateRegistryAbi, "setMarketplace", [market]);
  await send(net, owner, license, licenseTokenAbi, "setMarketplace", [market]);
  return { registry, license, market };
}

export { licenseTokenAbi, marketplaceAbi, templateRegistryAbi };
