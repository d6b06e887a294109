// The SDK's marketplace client against a real `hardhat node` over JSON-RPC: deploy with the Ignition module,
// register, buy with excess, check, transfer and revoke the license, withdraw fees, and errors by name.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import { network } from "hardhat";
import { createPublicClient, createWalletClient, http, parseEther, zeroAddress, type Address } from "viem";
import { hardhat } from "viem/chains";
import { deployMusterMarketplace } from "../../contracts/ignition/deploy.ts";
import {
  createMarketplaceClient,
  createMarketplaceClientFromDeployments,
  getMarketplaceDeployment,
  loadMarketplaceDeployments,
  MarketplaceContractError,
  MarketplaceDeploymentNotFoundError,
  MarketplacePriceAboveLimitError,
  MarketplaceValidationError,
  MarketplaceWalletRequiredError,
  type MarketplaceClient,
} from "../../sdk/src/index.ts";
import { buildContracts } from "../contracts/support/build-lock.ts";
import { startHardhatNode, type HardhatNode } from "./support/hardhat-node.ts";

setTimeout(() => { console.error("marketplace-client.test.ts timed out"); process.exit(1); }, 240_000).unref();

const URI = "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/template.json";
const PRICE = parseEther("0.01");
const deploymentId = `sdk-test-${process.pid}`;
const ignitionJournal = new URL(`../../contracts/ignition/deployments/${deploymentId}`, import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), "muster-sdk-"));
const deploymentsFile = join(tmp, "deployments.json");

let node: HardhatNode;
let accounts: Address[];
let publicClient: ReturnType<typeof makePublic>;
const clients: Record<"owner" | "creator" | "buyer" | "other", MarketplaceClient> = {} as never;

function makePublic(url: string) {
  return createPublicClient({ chain: hardhat, transport: http(url) });
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
  const roles = ["owner", "creator", "buyer", "other"] as const;
  for (const [i, role] of roles.entries()) {
    const walletClient = createWalletClient({ account: accounts[i]!, chain: hardhat, transport: http(node.url) });
    clients[role] = await createMarketplaceClientFromDeployments({ publicClient, walletClient, deployments: deploymentsFile });
  }
});

test.after(async () => {
  await node?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

test("the deployments file records the chain's addresses and the contracts are wired", async () => {
  const deployments = await loadMarketplaceDeployments(deploymentsFile);
  const entry = getMarketplaceDeployment(deployments, 31337);
  assert.equal(entry.marketplace, clients.owner.addresses.marketplace);
  assert.equal((await clients.owner.marketplaceOf("templateRegistry")).toLowerCase(), entry.marketplace.toLowerCase());
  assert.equal((await clients.owner.marketplaceOf("licenseToken")).toLowerCase(), entry.marketplace.toLowerCase());
  assert.equal((await clients.owner.owner("marketplace")).toLowerCase(), accounts[0]!.toLowerCase());
  assert.equal(await clients.owner.platformFeeBps(), 250);
  assert.throws(() => getMarketplaceDeployment(deployments, 1), MarketplaceDeploymentNotFoundError);
});

test("register, buy with excess, check, transfer, revoke, withdraw fees", async () => {
  const { owner, creator, buyer, other } = clients;
  const registered = await creator.registerTemplate({ metadataURI: URI, price: PRICE, royaltyBps: 500 });
  assert.equal(registered.result, 1n);
  assert.ok(registered.events.some((e) => e.eventName === "TemplateRegistered" && e.args.templateId === 1n));
  const template = await buyer.getTemplate(1n);
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
  assert.equal(await buyer.hasLicense(accounts[2]!, 1n), true);
  assert.deepEqual(await buyer.licensesOf(accounts[2]!), [1n]);
  assert.equal((await buyer.getTemplate(1n)).installs, 1n);
  const royalty = await buyer.royaltyInfo(1n, parseEther("1"));
  assert.equal(royalty.receiver.toLowerCase(), accounts[1]!.toLowerCase());
  assert.equal(royalty.amount, parseEther("0.05"));
  assert.equal(await buyer.tokenURI(1n), URI);

  await expectContractError(buyer.purchase({ templateId: 1n }), "AlreadyLicensed", [accounts[2]!, 1n]);

  const moved = await buyer.transferLicense({ from: accounts[2]!, to: accounts[3]!, tokenId: 1n });
  assert.ok(moved.events.some((e) => e.eventName === "Transfer"));
  assert.equal(await other.holdsValidLicense(accounts[3]!, 1n), true);
  assert.equal(await other.holdsValidLicense(accounts[2]!, 1n), false);

  await expectContractError(buyer.revokeLicense(1n), "OwnableUnauthorizedAccount", [accounts[2]!]);
  const revoked = await owner.revokeLicense(1n);
  assert.ok(revoked.events.some((e) => e.eventName === "LicenseRevoked"));
  assert.equal(await other.hasLicense(accounts[3]!, 1n), false);
  assert.equal((await other.getLicense(1n)).revoked, true);

  const fees = await owner.accruedFees();
  assert.equal(fees, PRICE * 250n / 10_000n);
  const withdrawn = await owner.withdrawFees();
  assert.ok(withdrawn.events.some((e) => e.eventName === "FeesWithdrawn" && e.args.amount === fees));
  assert.equal(await owner.accruedFees(), 0n);
  await expectContractError(owner.withdrawFees(), "NoFeesToWithdraw", []);

  const events = await owner.getEvents({ fromBlock: 0n });
  for (const name of ["TemplateRegistered", "TemplateInstalled", "LicenseMinted", "Purchased", "LicenseRevoked", "FeesWithdrawn", "MarketplaceUpdated"]) {
    assert.ok(events.some((e) => e.eventName === name), `event ${name} found by getEvents`);
  }
});

test("contract errors surface by name with their arguments", async () => {
  const { owner, creator, buyer } = clients;
  await expectContractError(buyer.getTemplate(999n), "TemplateNotFound", [999n]);
  await expectContractError(buyer.pause(), "OwnableUnauthorizedAccount", [accounts[2]!]);
  await expectContractError(buyer.mint({ to: accounts[2]!, templateId: 1n }), "NotMarketplace", [accounts[2]!]);
  await expectContractError(buyer.updateTemplate({ templateId: 1n, metadataURI: "ipfs://x", price: 1n }), "NotTemplateCreator", [1n, accounts[2]!]);
  await expectContractError(owner.renounceOwnership("licenseToken"), "RenounceOwnershipDisabled", []);
  await expectContractError(buyer.withdraw(), "NothingToWithdraw", [accounts[2]!]);
  await expectContractError(clients.other.purchase({ templateId: 1n, value: 1n }), "InsufficientPayment", [1n, PRICE, 1n]);

  const { result: id } = await creator.registerTemplate({ metadataURI: "ipfs://paused", price: 0n, royaltyBps: 0 });
  await owner.pause();
  await expectContractError(buyer.purchase({ templateId: id }), "EnforcedPause", []);
  await owner.unpause();
  await buyer.purchase({ templateId: id });
  await creator.deactivateTemplate(id);
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
  await invalid(owner.setPlatformFee(1001), "feeBps");
  await invalid(owner.setPlatformFee(2.5), "feeBps");
  await invalid(buyer.purchase({ templateId: 0n }), "templateId");
  await invalid(buyer.withdrawTo(zeroAddress), "to");
  await invalid(buyer.transferLicense({ from: accounts[2]!, to: "0x1234" as Address, tokenId: 1n }), "to");
  await invalid(owner.setMarketplace("licenseToken", zeroAddress), "marketplace");
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
  assert.equal(await buyer.hasLicense(accounts[2]!, id), false);
});

test("a client without a wallet reads but refuses to write", async () => {
  const readOnly = createMarketplaceClient({ publicClient, addresses: clients.owner.addresses });
  assert.equal(await readOnly.platformFeeBps(), 250);
  const error = await readOnly.withdraw().then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof MarketplaceWalletRequiredError);
  assert.throws(() => createMarketplaceClient({ publicClient, addresses: { ...clients.owner.addresses, marketplace: "0xnope" as Address } }), MarketplaceValidationError);
});

test.run();
