import assert from "node:assert/strict";
import { test } from "uvu";
import { zeroAddress } from "viem";
import { URI, deploy, deploySystem, expectEvent, expectRevert, openNetwork, registryAt, send, templateRegistryAbi, type Net } from "./support/fixture.ts";
import { scaled } from "../../core/plugin-api/testing/time-scale.ts";

setTimeout(() => { console.error("template-registry.test.ts timed out"); process.exit(1); }, scaled(180_000)).unref();

let net: Net;
let ctx: Awaited<ReturnType<typeof setup>>;

async function setup() {
  const [owner, creator, other, newOwner] = net.wallets as [Net["wallets"][number], Net["wallets"][number], Net["wallets"][number], Net["wallets"][number]];
  const system = await deploySystem(net, owner);
  const registry = registryAt(net, system.registry);
  const reg = (from: typeof owner, fn: string, args: readonly unknown[] = []) => send(net, from, system.registry, templateRegistryAbi, fn, args);
  return { owner, creator, other, newOwner, system, registry, reg };
}
async function fixture() { return setup(); }

test.before(async () => { net = await openNetwork(); });
test.after(async () => { await net.connection.close(); });
test.before.each(async () => { ctx = await net.networkHelpers.loadFixture(fixture); });

test("registerTemplate stores the record, returns id 1 and emits TemplateRegistered", async () => {
  const { creator, registry, reg } = ctx;
  const { receipt, events } = await reg(creator, "registerTemplate", [URI, 10n ** 16n, 500]);
  expectEvent(events, "TemplateRegistered", { templateId: 1n, creator: creator.account.address, metadataURI: URI, price: 10n ** 16n, royaltyBps: 500 });
  const block = await net.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  const t = await registry.read.getTemplate([1n]);
  assert.equal(t.id, 1n);
  assert.equal(t.creator.toLowerCase(), creator.account.address.toLowerCase());
  assert.equal(t.metadataURI, URI);
  assert.equal(t.price, 10n ** 16n);
  assert.equal(t.royaltyBps, 500);
  assert.equal(t.active, true);
  assert.equal(t.installs, 0n);
  assert.equal(t.createdAt, block.timestamp);
  assert.equal(await registry.read.templateCount(), 1n);
  const [royaltyReceiver, royaltyBps] = await registry.read.royaltyOf([1n]);
  assert.equal(royaltyReceiver.toLowerCase(), creator.account.address.toLowerCase());
  assert.equal(royaltyBps, 500);
});

test("metadata URIs of any length round-trip, including whole-word lengths", async () => {
  const { creator, registry, reg } = ctx;
  const uris = ["x", "a".repeat(31), "b".repeat(32), "c".repeat(33), "d".repeat(64), `ipfs://${"é".repeat(150)}`];
  for (const [i, uri] of uris.entries()) {
    await reg(creator, "registerTemplate", [uri, 0n, 0]);
    assert.equal((await registry.read.getTemplate([BigInt(i + 1)])).metadataURI, uri);
  }
});

test("getTemplatesByCreator lists each creator's templates, oldest first", async () => {
  const { creator, other, registry, reg } = ctx;
  await reg(creator, "registerTemplate", ["ipfs://1", 1n, 0]);
  await reg(other, "registerTemplate", ["ipfs://2", 1n, 0]);
  await reg(creator, "registerTemplate", ["ipfs://3", 1n, 0]);
  assert.deepEqual(await registry.read.getTemplatesByCreator([creator.account.address]), [1n, 3n]);
  assert.deepEqual(await registry.read.getTemplatesByCreator([other.account.address]), [2n]);
  assert.deepEqual(await registry.read.getTemplatesByCreator([zeroAddress]), []);
});

test("registerTemplate refuses an empty URI, a royalty over 1000 bps and an oversized price, changing nothing", async () => {
  const { creator, registry } = ctx;
  const simulate = (args: readonly [string, bigint, number]) =>
    net.publicClient.simulateContract({ address: registry.address, abi: templateRegistryAbi, functionName: "registerTemplate", args, account: creator.account });
  await expectRevert(creator.writeContract({ address: registry.address, abi: templateRegistryAbi, functionName: "registerTemplate", args: ["", 1n, 0], account: creator.account, chain: null }), "EmptyMetadataURI", []);
  await expectRevert(simulate([URI, 1n, 1001]), "RoyaltyTooHigh", [1001, 1000]);
  await expectRevert(simulate([URI, 1n, 65535]), "RoyaltyTooHigh", [65535, 1000]);
  await expectRevert(simulate([URI, 2n ** 128n, 0]), "PriceTooHigh", [2n ** 128n, 2n ** 128n - 1n]);
  await simulate([URI, 2n ** 128n - 1n, 1000]); // the caps themselves are accepted
  assert.equal(await registry.read.templateCount(), 0n);
});

test("updateTemplate changes URI and price for the creator and emits TemplateUpdated", async () => {
  const { creator, registry, reg } = ctx;
  await reg(creator, "registerTemplate", [URI, 5n, 300]);
  const { events } = await reg(creator, "updateTemplate", [1n, "ipfs://v2", 7n]);
  expectEvent(events, "TemplateUpdated", { templateId: 1n, metadataURI: "ipfs://v2", price: 7n });
  const t = await registry.read.getTemplate([1n]);
  assert.equal(t.metadataURI, "ipfs://v2");
  assert.equal(t.price, 7n);
  assert.equal(t.royaltyBps, 300, "royalty is fixed");
});

test("updateTemplate: wrong caller, unknown id, inactive template, empty URI and oversized price revert", async () => {
  const { creator, other, registry, reg } = ctx;
  await reg(creator, "registerTemplate", [URI, 5n, 0]);
  const update = (from: typeof creator, args: readonly [bigint, string, bigint]) =>
    from.writeContract({ address: registry.address, abi: templateRegistryAbi, functionName: "updateTemplate", args, account: from.account, chain: null });
  await expectRevert(update(other, [1n, "ipfs://x", 1n]), "NotTemplateCreator", [1n, other.account.address]);
  await expectRevert(update(creator, [9n, "ipfs://x", 1n]), "TemplateNotFound", [9n]);
  await expectRevert(update(creator, [1n, "", 1n]), "EmptyMetadataURI", []);
  await expectRevert(update(creator, [1n, "ipfs://x", 2n ** 128n]), "PriceTooHigh", [2n ** 128n, 2n ** 128n - 1n]);
  await reg(creator, "deactivateTemplate", [1n]);
  await expectRevert(update(creator, [1n, "ipfs://x", 1n]), "TemplateInactive", [1n]);
  const t = await registry.read.getTemplate([1n]);
  assert.equal(t.metadataURI, URI);
  assert.equal(t.price, 5n);
});

test("deactivateTemplate is creator-only, one-way and emits TemplateDeactivated", async () => {
  const { creator, other, registry, reg } = ctx;
  await reg(creator, "registerTemplate", [URI, 5n, 0]);
  const deactivate = (from: typeof creator, id: bigint) =>
    from.writeContract({ address: registry.address, abi: templateRegistryAbi, functionName: "deactivateTemplate", args: [id], account: from.account, chain: null });
  await expectRevert(deactivate(other, 1n), "NotTemplateCreator", [1n, other.account.address]);
  await expectRevert(deactivate(creator, 2n), "TemplateNotFound", [2n]);
  const { events } = await reg(creator, "deactivateTemplate", [1n]);
  expectEvent(events, "TemplateDeactivated", { templateId: 1n });
  assert.equal((await registry.read.getTemplate([1n])).active, false);
  await expectRevert(deactivate(creator, 1n), "TemplateInactive", [1n]);
});

test("recordInstall is marketplace-only; unknown ids revert in getTemplate and royaltyOf", async () => {
  const { creator, other, registry, reg } = ctx;
  await reg(creator, "registerTemplate", [URI, 5n, 0]);
  await expectRevert(
    other.writeContract({ address: registry.address, abi: templateRegistryAbi, functionName: "recordInstall", args: [1n, other.account.address], account: other.account, chain: null }),
    "NotMarketplace",
    [other.account.address],
  );
  await expectRevert(registry.read.getTemplate([0n]), "TemplateNotFound", [0n]);
  await expectRevert(registry.read.getTemplate([2n]), "TemplateNotFound", [2n]);
  await expectRevert(registry.read.royaltyOf([2n]), "TemplateNotFound", [2n]);
  assert.equal((await registry.read.getTemplate([1n])).installs, 0n);
});

test("setMarketplace: owner only, no zero address, set once (a second set reverts), emits MarketplaceSet", async () => {
  const { owner, other, system } = ctx;
  const fresh = registryAt(net, await deploy(net, "TemplateRegistry", [owner.account.address], owner));
  const set = (from: typeof owner, a: `0x${string}`) =>
    from.writeContract({ address: fresh.address, abi: templateRegistryAbi, functionName: "setMarketplace", args: [a], account: from.account, chain: null });
  await expectRevert(set(other, other.account.address), "OwnableUnauthorizedAccount", [other.account.address]);
  await expectRevert(set(owner, zeroAddress), "ZeroAddress", []);
  const { events } = await send(net, owner, fresh.address, templateRegistryAbi, "setMarketplace", [system.market]);
  expectEvent(events, "MarketplaceSet", { marketplace: system.market }, fresh.address);
  await expectRevert(set(owner, other.account.address), "MarketplaceAlreadySet", [system.market]);
  assert.equal((await fresh.read.marketplace()).toLowerCase(), system.market.toLowerCase());
  // The deployed system's registry is already wired: nobody, owner included, can re-point it at a minting account.
  await expectRevert(
    owner.writeContract({ address: system.registry, abi: templateRegistryAbi, functionName: "setMarketplace", args: [other.account.address], account: owner.account, chain: null }),
    "MarketplaceAlreadySet",
    [system.market],
  );
});

test("ownership is two-step and cannot be renounced", async () => {
  const { owner, other, newOwner, registry, reg } = ctx;
  const { events } = await reg(owner, "transferOwnership", [newOwner.account.address]);
  expectEvent(events, "OwnershipTransferStarted", { previousOwner: owner.account.address, newOwner: newOwner.account.address });
  assert.equal((await registry.read.owner()).toLowerCase(), owner.account.address.toLowerCase(), "unchanged until accepted");
  await reg(owner, "transferOwnership", [newOwner.account.address]); // the old owner keeps its (owner-only) rights meanwhile
  await expectRevert(
    other.writeContract({ address: registry.address, abi: templateRegistryAbi, functionName: "acceptOwnership", account: other.account, chain: null }),
    "OwnableUnauthorizedAccount",
    [other.account.address],
  );
  const accepted = await reg(newOwner, "acceptOwnership");
  expectEvent(accepted.events, "OwnershipTransferred", { previousOwner: owner.account.address, newOwner: newOwner.account.address });
  await expectRevert(
    owner.writeContract({ address: registry.address, abi: templateRegistryAbi, functionName: "setMarketplace", args: [owner.account.address], account: owner.account, chain: null }),
    "OwnableUnauthorizedAccount",
    [owner.account.address],
  );
  await expectRevert(
    newOwner.writeContract({ address: registry.address, abi: templateRegistryAbi, functionName: "renounceOwnership", account: newOwner.account, chain: null } as never),
    "RenounceOwnershipDisabled",
    [],
  );
  await expectRevert(
    other.writeContract({ address: registry.address, abi: templateRegistryAbi, functionName: "renounceOwnership", account: other.account, chain: null } as never),
    "OwnableUnauthorizedAccount",
    [other.account.address],
  );
});

test.run();
