// The SDK's marketplace actions, through viem's `client.extend(marketplaceActions(addresses))`, against a real
// `hardhat node` over JSON-RPC: deploy with the Ignition module, register, buy with excess, check, transfer and
// revoke the license, withdraw fees, and errors by name.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import { network } from "hardhat";
import { createPublicClient, createWalletClient, decodeFunctionData, http, parseEther, zeroAddress, type Address } from "viem";
import { hardhat } from "viem/chains";
import { deployMusterMarketplace } from "../../contracts/ignition/deploy.ts";
import {
  getMarketplaceDeployment,
  getTemplate,
  marketplaceAbi,
  marketplaceActions,
  loadMarketplaceDeployments,
  MarketplaceContractError,
  MarketplaceDeploymentNotFoundError,
  MarketplacePriceAboveLimitError,
  MarketplaceValidationError,
  MarketplaceWalletRequiredError,
  type MarketplaceAddresses,
} from "../../sdk/src/index.ts";
import { buildContracts } from "../contracts/support/build-lock.ts";
import { startHardhatNode, type HardhatNode } from "./support/hardhat-node.ts";
import { scaled } from "../../core/plugin-api/testing/time-scale.ts";

setTimeout(() => { console.error("marketplace-client.test.ts timed out"); process.exit(1); }, scaled(240_000)).unref();

const URI = "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/template.json";
const PRICE = parseEther("0.01");
const deploymentId = `sdk-test-${process.pid}`;
const ignitionJournal = new URL(`../../contracts/ignition/deployments/${deploymentId}`, import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), "muster-sdk-"));
const deploymentsFile = join(tmp, "deployments.json");

let node: HardhatNode;
let accounts: Address[];
let publicClient: ReturnType<typeof makePublic>;
let addresses: MarketplaceAddresses;
const clients: Record<"owner" | "creator" | "buyer" | "other", ReturnType<typeof makeWallet>> = {} as never;

function makePublic(url: string) {
  return createPublicClient({ chain: hardhat, transport: http(url) });
}
function makeWallet(url: string, account: Address, bound: MarketplaceAddresses) {
  return createWalletClient({ account, chain: hardhat, transport: http(url) }).extend(marketplaceActions(bound));
}

async function expectContractError(promise: Promise<unknown>, errorName: string, args?: readonly unknown[]) {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof MarketplaceContractError, `expected MarketplaceContractError ${errorName}, got ${String(error)}`);
  assert.equal(error.code, "MARKETPLACE_CONTRACT_ERROR");
  assert.equal(error.errorName, errorName);
  if (args) assert.deepEqual(error.args.map((a) => (typeof a === "string" ? a.toLowerCase() : a)), args.map((a) => (typeof a === "string" ? a.toLowerCase() : a)));
}

test.before(async () => {
  await buildContracts();
  node = await startHardhatNode();
  const connection = await network.connect({ network: "localhost", override: { url: node.url } });
  try {
    await deployMusterMarketplace(connection, { deploymentId, freshJournal: true, deploymentsFile });
  } finally {
    await connection.close();
    rmSync(ignitionJournal, { recursive: true, force: true });
  }
  publicClient = makePublic(node.url);
  accounts = await createWalletClient({ chain: hardhat, transport: http(node.url) }).getAddresses();
  addresses = getMarketplaceDeployment(await loadMarketplaceDeployments(deploymentsFile), await publicClient.getChainId());
  const roles = ["owner", "creator", "buyer", "other"] as const;
  for (const [i, role] of roles.entries()) clients[role] = makeWallet(node.url, accounts[i]!, addresses);
});

test.after(async () => {
  await node?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

test("the deployments file records the chain's addresses and the contracts are wired", async () => {
  const deployments = await loadMarketplaceDeployments(deploymentsFile);
  const entry = getMarketplaceDeployment(deployments, 31337);
  assert.equal(entry.marketplace, clients.owner.marketplaceAddresses.marketplace);
  assert.equal((await clients.owner.marketplaceOf({ contract: "templateRegistry" })).toLowerCase(), entry.marketplace.toLowerCase());
  assert.equal((await clients.owner.marketplaceOf({ contract: "licenseToken" })).toLowerCase(), entry.marketplace.toLowerCase());
  assert.equal((await clients.owner.owner({ contract: "marketplace" })).toLowerCase(), accounts[0]!.toLowerCase());
  assert.equal(await clients.owner.platformFeeBps(), 250);
  assert.throws(() => getMarketplaceDeployment(deployments, 1), MarketplaceDeploymentNotFoundError);
});

test("register, buy with excess, check, transfer, revoke, withdraw fees", async () => {
  const { owner, creator, buyer, other } = clients;
  const registered = await creator.registerTemplate({ metadataURI: URI, price: PRICE, royaltyBps: 500 });
  assert.equal(registered.result, 1n);
  assert.ok(registered.events.some((e) => e.eventName === "TemplateRegistered" && e.args.templateId === 1n));
  const template = await buyer.getTemplate({ templateId: 1n });
  assert.equal(template.metadataURI, URI);
  assert.equal(template.price, PRICE);

  const before = await publicClient.getBalance({ address: accounts[2]! });
  const bought = await buyer.purchase({ templateId: 1n, value: PRICE * 3n });
  assert.equal(bought.result, 1n, "token id");
  const purchased = bought.events.find((e) => e.eventName === "Purchased");
  assert.ok(purchased);
  assert.equal(purchased.contract, "marketplace");
  assert.equal(purchased.args.excess, PRICE * 2n);
  const gas = bought.receipt.gasUsed * bought.receipt.effectiveGasPrice;
  assert.equal(await publicClient.getBalance({ address: accounts[2]! }), before - PRICE - gas, "charged exactly the price");
  assert.equal(await buyer.hasLicense({ user: accounts[2]!, templateId: 1n }), true);
  assert.deepEqual(await buyer.licensesOf({ user: accounts[2]! }), [1n]);
  assert.equal((await buyer.getTemplate({ templateId: 1n })).installs, 1n);
  const royalty = await buyer.royaltyInfo({ tokenId: 1n, salePrice: parseEther("1") });
  assert.equal(royalty.receiver.toLowerCase(), accounts[1]!.toLowerCase());
  assert.equal(royalty.amount, parseEther("0.05"));
  assert.equal(await buyer.tokenURI({ tokenId: 1n }), URI);

  await expectContractError(buyer.purchase({ templateId: 1n }), "AlreadyLicensed", [accounts[2]!, 1n]);

  const moved = await buyer.transferLicense({ from: accounts[2]!, to: accounts[3]!, tokenId: 1n });
  assert.ok(moved.events.some((e) => e.eventName === "Transfer"));
  assert.equal(await other.holdsValidLicense({ user: accounts[3]!, templateId: 1n }), true);
  assert.equal(await other.holdsValidLicense({ user: accounts[2]!, templateId: 1n }), false);

  await expectContractError(buyer.revokeLicense({ tokenId: 1n }), "OwnableUnauthorizedAccount", [accounts[2]!]);
  const revoked = await owner.revokeLicense({ tokenId: 1n });
  assert.ok(revoked.events.some((e) => e.eventName === "LicenseRevoked"));
  assert.equal(await other.hasLicense({ user: accounts[3]!, templateId: 1n }), false);
  assert.equal((await other.getLicense({ tokenId: 1n })).revoked, true);

  const fees = await owner.accruedFees();
  assert.equal(fees, PRICE * 250n / 10_000n);
  const withdrawn = await owner.withdrawFees({ to: accounts[0]! });
  assert.ok(withdrawn.events.some((e) => e.eventName === "FeesWithdrawn" && e.args.amount === fees));
  assert.equal(await owner.accruedFees(), 0n);
  await expectContractError(owner.withdrawFees({ to: accounts[0]! }), "NoFeesToWithdraw", []);

  const events = await owner.getMarketplaceEvents({ fromBlock: 0n });
  for (const name of ["TemplateRegistered", "TemplateInstalled", "LicenseMinted", "Purchased", "LicenseRevoked", "FeesWithdrawn", "MarketplaceSet"]) {
    assert.ok(events.some((e) => e.eventName === name), `event ${name} found by getEvents`);
  }
});

test("contract errors surface by name with their arguments", async () => {
  const { owner, creator, buyer } = clients;
  await expectContractError(buyer.getTemplate({ templateId: 999n }), "TemplateNotFound", [999n]);
  await expectContractError(buyer.pause(), "OwnableUnauthorizedAccount", [accounts[2]!]);
  await expectContractError(buyer.mint({ to: accounts[2]!, templateId: 1n }), "NotMarketplace", [accounts[2]!]);
  await expectContractError(buyer.updateTemplate({ templateId: 1n, metadataURI: "ipfs://x", price: 1n }), "NotTemplateCreator", [1n, accounts[2]!]);
  await expectContractError(owner.renounceOwnership({ contract: "licenseToken" }), "RenounceOwnershipDisabled", []);
  await expectContractError(buyer.withdraw(), "NothingToWithdraw", [accounts[2]!]);
  await expectContractError(clients.other.purchase({ templateId: 1n, value: 1n }), "InsufficientPayment", [1n, PRICE, 1n]);

  const { result: id } = await creator.registerTemplate({ metadataURI: "ipfs://paused", price: 0n, royaltyBps: 0 });
  await owner.pause();
  await expectContractError(buyer.purchase({ templateId: id }), "EnforcedPause", []);
  await owner.unpause();
  await buyer.purchase({ templateId: id });
  await creator.deactivateTemplate({ templateId: id });
  await expectContractError(clients.other.purchase({ templateId: id }), "TemplateInactive", [id]);
});

test("inputs are validated before anything is sent", async () => {
  const { owner, creator, buyer } = clients;
  const count = await creator.templateCount();
  const nonce = await publicClient.getTransactionCount({ address: accounts[1]! });
  const invalid = async (promise: Promise<unknown>, field: string) => {
    const error = await promise.then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof MarketplaceValidationError, `expected a validation error for ${field}, got ${String(error)}`);
    assert.equal(error.code, "MARKETPLACE_INVALID_INPUT");
    assert.equal(error.field, field);
  };
  await invalid(creator.registerTemplate({ metadataURI: "", price: 1n, royaltyBps: 0 }), "metadataURI");
  await invalid(creator.registerTemplate({ metadataURI: URI, price: 1n, royaltyBps: 1001 }), "royaltyBps");
  await invalid(creator.registerTemplate({ metadataURI: URI, price: -1n, royaltyBps: 0 }), "price");
  await invalid(creator.registerTemplate({ metadataURI: URI, price: 2n ** 128n, royaltyBps: 0 }), "price");
  await invalid(owner.setPlatformFee({ feeBps: 1001 }), "feeBps");
  await invalid(owner.setPlatformFee({ feeBps: 2.5 }), "feeBps");
  await invalid(buyer.purchase({ templateId: 0n }), "templateId");
  await invalid(buyer.withdrawTo({ to: zeroAddress }), "to");
  await invalid(buyer.transferLicense({ from: accounts[2]!, to: "0x1234" as Address, tokenId: 1n }), "to");
  await invalid(owner.setMarketplace({ contract: "licenseToken", marketplace: zeroAddress }), "marketplace");
  assert.equal(await creator.templateCount(), count);
  assert.equal(await publicClient.getTransactionCount({ address: accounts[1]! }), nonce, "nothing was sent");
});

test("purchase refuses before sending when the price went above maxPrice", async () => {
  const { creator, buyer } = clients;
  const { result: id } = await creator.registerTemplate({ metadataURI: "ipfs://pricey", price: PRICE, royaltyBps: 0 });
  await creator.updateTemplate({ templateId: id, metadataURI: "ipfs://pricey", price: PRICE * 2n });
  const error = await buyer.purchase({ templateId: id, maxPrice: PRICE }).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof MarketplacePriceAboveLimitError);
  assert.equal(error.price, PRICE * 2n);
  // A value above maxPrice would let a price raised before mining cost up to that value.
  const overpay = await buyer.purchase({ templateId: id, maxPrice: PRICE * 2n, value: PRICE * 3n }).then(() => undefined, (e: unknown) => e);
  assert.ok(overpay instanceof MarketplaceValidationError);
  assert.equal(overpay.field, "value");
  assert.equal(await buyer.hasLicense({ user: accounts[2]!, templateId: id }), false);
});

test("purchase sends its limit to the contract: maxPrice when given, else the price it read", async () => {
  const { creator, buyer, other } = clients;
  const { result: id } = await creator.registerTemplate({ metadataURI: "ipfs://limited", price: PRICE, royaltyBps: 0 });
  const limited = await buyer.purchase({ templateId: id, maxPrice: PRICE * 2n });
  const sent = decodeFunctionData({ abi: marketplaceAbi, data: (await publicClient.getTransaction({ hash: limited.hash })).input });
  assert.equal(sent.functionName, "purchase");
  assert.deepEqual(sent.args, [id, PRICE * 2n]);
  const unlimited = await other.purchase({ templateId: id });
  const sentDefault = decodeFunctionData({ abi: marketplaceAbi, data: (await publicClient.getTransaction({ hash: unlimited.hash })).input });
  assert.deepEqual(sentDefault.args, [id, PRICE], "the price read is the limit, so a raise before mining reverts");
});

test("a client without an account reads but refuses to write; the decorator validates addresses once", async () => {
  const readOnly = makePublic(node.url).extend(marketplaceActions(addresses));
  assert.equal(await readOnly.platformFeeBps(), 250);
  const error = await readOnly.withdraw().then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof MarketplaceWalletRequiredError);
  assert.equal(error.code, "MARKETPLACE_WALLET_REQUIRED");
  assert.throws(() => marketplaceActions({ ...addresses, marketplace: "0xnope" as Address }), MarketplaceValidationError);
  // Every action also works without the decorator, on any viem client, with the addresses passed in.
  assert.equal((await getTemplate(publicClient, { addresses, templateId: 1n })).metadataURI, URI);
});

test.run();
