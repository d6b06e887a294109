import assert from "node:assert/strict";
import { test } from "uvu";
import { zeroAddress, type Address } from "viem";
import { URI, deploy, expectEvent, expectRevert, licenseAt, licenseTokenAbi, openNetwork, send, templateRegistryAbi, type Net, type Wallet } from "./support/fixture.ts";
import { scaled } from "../../core/plugin-api/testing/time-scale.ts";

setTimeout(() => { console.error("license-token.test.ts timed out"); process.exit(1); }, scaled(180_000)).unref();

let net: Net;
let ctx: Awaited<ReturnType<typeof setup>>;

// The token is pointed at a plain account (`minter`) standing in for the marketplace, so mint can be driven directly.
async function setup() {
  const [owner, minter, creator, alice, bob, carol, stranger] = net.wallets as Wallet[] as [Wallet, Wallet, Wallet, Wallet, Wallet, Wallet, Wallet];
  const registry = await deploy(net, "TemplateRegistry", [owner.account.address], owner);
  const address = await deploy(net, "LicenseToken", [registry, owner.account.address], owner);
  await send(net, owner, address, licenseTokenAbi, "setMarketplace", [minter.account.address]);
  for (let i = 0; i < 6; i++) await send(net, creator, registry, templateRegistryAbi, "registerTemplate", [`${URI}#${i + 1}`, 0n, 500]);
  const token = licenseAt(net, address);
  const call = (from: Wallet, fn: string, args: readonly unknown[] = []) => send(net, from, address, licenseTokenAbi, fn, args);
  const attempt = (from: Wallet, fn: string, args: readonly unknown[] = []) =>
    from.writeContract({ address, abi: licenseTokenAbi, functionName: fn, args, account: from.account, chain: null } as never);
  const mint = (to: Wallet, templateId: bigint) => call(minter, "mint", [to.account.address, templateId]);
  return { owner, minter, creator, alice, bob, carol, stranger, registry, address, token, call, attempt, mint };
}
async function fixture() { return setup(); }

const addr = (w: Wallet): Address => w.account.address;
const same = (a: string, b: string) => assert.equal(a.toLowerCase(), b.toLowerCase());

test.before(async () => { net = await openNetwork(); });
test.after(async () => { await net.connection.close(); });
test.before.each(async () => { ctx = await net.networkHelpers.loadFixture(fixture); });

test("mint creates the token and the license, emitting Transfer and LicenseMinted", async () => {
  const { alice, token, mint } = ctx;
  const { receipt, events } = await mint(alice, 1n);
  expectEvent(events, "Transfer", { from: zeroAddress, to: addr(alice), tokenId: 1n });
  expectEvent(events, "LicenseMinted", { tokenId: 1n, templateId: 1n, to: addr(alice) });
  const block = await net.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  const license = await token.read.getLicense([1n]);
  assert.equal(license.templateId, 1n);
  same(license.originalBuyer, addr(alice));
  assert.equal(license.purchasedAt, block.timestamp);
  assert.equal(license.revoked, false);
  same(await token.read.ownerOf([1n]), addr(alice));
  assert.equal(await token.read.balanceOf([addr(alice)]), 1n);
  assert.equal(await token.read.holdsValidLicense([addr(alice), 1n]), true);
  assert.deepEqual(await token.read.licensesOf([addr(alice)]), [1n]);
  assert.equal(await token.read.totalMinted(), 1n);
});

test("mint: marketplace only, no zero address, no second valid license, no oversized or unknown template id", async () => {
  const { alice, minter, stranger, token, attempt, mint } = ctx;
  await expectRevert(attempt(stranger, "mint", [addr(alice), 1n]), "NotMarketplace", [addr(stranger)]);
  await expectRevert(attempt(minter, "mint", [zeroAddress, 1n]), "ERC721InvalidReceiver", [zeroAddress]);
  await expectRevert(attempt(minter, "mint", [addr(alice), 2n ** 48n]), "TemplateIdTooLarge", [2n ** 48n]);
  await expectRevert(attempt(minter, "mint", [addr(alice), 7n]), "TemplateNotFound", [7n]); // the registry has 6
  await mint(alice, 1n);
  await expectRevert(attempt(minter, "mint", [addr(alice), 1n]), "AlreadyLicensed", [addr(alice), 1n]);
  assert.equal(await token.read.totalMinted(), 1n);
});

test("transferring the token moves the license", async () => {
  const { alice, bob, token, call, mint } = ctx;
  await mint(alice, 1n);
  const { events } = await call(alice, "transferFrom", [addr(alice), addr(bob), 1n]);
  expectEvent(events, "Transfer", { from: addr(alice), to: addr(bob), tokenId: 1n });
  assert.equal(await token.read.holdsValidLicense([addr(alice), 1n]), false);
  assert.equal(await token.read.holdsValidLicense([addr(bob), 1n]), true);
  assert.deepEqual(await token.read.licensesOf([addr(alice)]), []);
  assert.deepEqual(await token.read.licensesOf([addr(bob)]), [1n]);
  assert.equal(await token.read.balanceOf([addr(alice)]), 0n);
  assert.equal(await token.read.balanceOf([addr(bob)]), 1n);
  same((await token.read.getLicense([1n])).originalBuyer, addr(alice));
});

test("a holder of two tokens of one template who gives one away stays licensed", async () => {
  const { alice, bob, carol, token, call, mint } = ctx;
  await mint(alice, 1n); // token 1
  await mint(bob, 1n); // token 2
  await call(bob, "transferFrom", [addr(bob), addr(alice), 2n]);
  assert.equal(await token.read.validLicenseCount([addr(alice), 1n]), 2n);
  await call(alice, "transferFrom", [addr(alice), addr(carol), 1n]);
  assert.equal(await token.read.holdsValidLicense([addr(alice), 1n]), true);
  assert.equal(await token.read.validLicenseCount([addr(alice), 1n]), 1n);
  assert.equal(await token.read.holdsValidLicense([addr(carol), 1n]), true);
  assert.deepEqual(await token.read.licensesOf([addr(alice)]), [1n]);
});

test("licensesOf never lists duplicates (round trips, self-transfers, more than four templates)", async () => {
  const { alice, bob, token, call, mint } = ctx;
  for (let id = 1n; id <= 6n; id++) await mint(alice, id); // tokens 1..6; entries 5 and 6 overflow the inline list
  await call(alice, "transferFrom", [addr(alice), addr(bob), 1n]);
  await call(bob, "transferFrom", [addr(bob), addr(alice), 1n]);
  await call(alice, "transferFrom", [addr(alice), addr(alice), 6n]);
  await call(alice, "transferFrom", [addr(alice), addr(bob), 5n]);
  await call(bob, "transferFrom", [addr(bob), addr(alice), 5n]);
  assert.deepEqual([...(await token.read.licensesOf([addr(alice)]))].sort(), [1n, 2n, 3n, 4n, 5n, 6n]);
  assert.deepEqual(await token.read.licensesOf([addr(bob)]), []);
  await call(alice, "transferFrom", [addr(alice), addr(bob), 3n]);
  assert.deepEqual([...(await token.read.licensesOf([addr(alice)]))].sort(), [1n, 2n, 4n, 5n, 6n]);
  assert.equal(await token.read.balanceOf([addr(alice)]), 5n);
});

test("revokeLicense: owner only, ends the license, freezes the token, emits LicenseRevoked", async () => {
  const { owner, alice, bob, stranger, token, call, attempt, mint } = ctx;
  await mint(alice, 1n);
  await expectRevert(attempt(stranger, "revokeLicense", [1n]), "OwnableUnauthorizedAccount", [addr(stranger)]);
  await expectRevert(attempt(owner, "revokeLicense", [9n]), "ERC721NonexistentToken", [9n]);
  const { events } = await call(owner, "revokeLicense", [1n]);
  expectEvent(events, "LicenseRevoked", { tokenId: 1n, templateId: 1n, holder: addr(alice) });
  assert.equal(await token.read.holdsValidLicense([addr(alice), 1n]), false);
  assert.deepEqual(await token.read.licensesOf([addr(alice)]), []);
  assert.equal((await token.read.getLicense([1n])).revoked, true);
  await expectRevert(attempt(owner, "revokeLicense", [1n]), "TokenRevoked", [1n]);
  await expectRevert(attempt(alice, "transferFrom", [addr(alice), addr(bob), 1n]), "TokenRevoked", [1n]);
  assert.equal(await token.read.balanceOf([addr(alice)]), 1n, "the token stays with its holder");
});

test("revoking one of two tokens leaves the holder licensed", async () => {
  const { owner, alice, bob, token, call, mint } = ctx;
  await mint(alice, 1n);
  await mint(bob, 1n);
  await call(bob, "transferFrom", [addr(bob), addr(alice), 2n]);
  await call(owner, "revokeLicense", [1n]);
  assert.equal(await token.read.holdsValidLicense([addr(alice), 1n]), true);
  assert.equal(await token.read.validLicenseCount([addr(alice), 1n]), 1n);
});

test("approvals: approve, operator, clearing on transfer, and their errors", async () => {
  const { alice, bob, carol, stranger, token, call, attempt, mint } = ctx;
  await mint(alice, 1n);
  await mint(alice, 2n);
  await expectRevert(attempt(stranger, "approve", [addr(stranger), 1n]), "ERC721InvalidApprover", [addr(stranger)]);
  await expectRevert(attempt(alice, "approve", [addr(bob), 9n]), "ERC721NonexistentToken", [9n]);
  const approved = await call(alice, "approve", [addr(bob), 1n]);
  expectEvent(approved.events, "Approval", { owner: addr(alice), approved: addr(bob), tokenId: 1n });
  same(await token.read.getApproved([1n]), addr(bob));
  await expectRevert(attempt(stranger, "transferFrom", [addr(alice), addr(stranger), 1n]), "ERC721InsufficientApproval", [addr(stranger), 1n]);
  await call(bob, "transferFrom", [addr(alice), addr(carol), 1n]);
  assert.equal(await token.read.getApproved([1n]), zeroAddress, "approval cleared by the transfer");

  await expectRevert(attempt(alice, "setApprovalForAll", [zeroAddress, true]), "ERC721InvalidOperator", [zeroAddress]);
  const op = await call(alice, "setApprovalForAll", [addr(bob), true]);
  expectEvent(op.events, "ApprovalForAll", { owner: addr(alice), operator: addr(bob), approved: true });
  assert.equal(await token.read.isApprovedForAll([addr(alice), addr(bob)]), true);
  await call(bob, "approve", [addr(stranger), 2n]); // an operator may approve
  await call(bob, "transferFrom", [addr(alice), addr(bob), 2n]);
  assert.equal(await token.read.holdsValidLicense([addr(bob), 2n]), true);
  await expectRevert(token.read.getApproved([9n]), "ERC721NonexistentToken", [9n]);
});

test("transfer errors: wrong owner, zero recipient, unknown token, zero-address balance", async () => {
  const { alice, bob, token, attempt, mint } = ctx;
  await mint(alice, 1n);
  await expectRevert(attempt(alice, "transferFrom", [addr(bob), addr(alice), 1n]), "ERC721IncorrectOwner", [addr(bob), 1n, addr(alice)]);
  await expectRevert(attempt(alice, "transferFrom", [addr(alice), zeroAddress, 1n]), "ERC721InvalidReceiver", [zeroAddress]);
  await expectRevert(attempt(alice, "transferFrom", [addr(alice), addr(bob), 7n]), "ERC721NonexistentToken", [7n]);
  await expectRevert(token.read.ownerOf([7n]), "ERC721NonexistentToken", [7n]);
  await expectRevert(token.read.balanceOf([zeroAddress]), "ERC721InvalidOwner", [zeroAddress]);
  await expectRevert(token.read.getLicense([7n]), "ERC721NonexistentToken", [7n]);
});

test("safeTransferFrom checks contract recipients", async () => {
  const { owner, alice, token, call, attempt, mint } = ctx;
  const accepting = await deploy(net, "ERC721ReceiverMock", [true], owner);
  const rejecting = await deploy(net, "ERC721ReceiverMock", [false], owner);
  await mint(alice, 1n);
  await expectRevert(attempt(alice, "safeTransferFrom", [addr(alice), rejecting, 1n]), "ERC721InvalidReceiver", [rejecting]);
  await call(alice, "safeTransferFrom", [addr(alice), accepting, 1n, "0x1234"]);
  assert.equal(await token.read.holdsValidLicense([accepting, 1n]), true);
});

test("ERC-2981 royalties go to the template's creator; tokenURI is the template's URI; ERC-165", async () => {
  const { creator, alice, token, mint } = ctx;
  await mint(alice, 3n);
  const [receiver, amount] = await token.read.royaltyInfo([1n, 10_000n]);
  same(receiver, addr(creator));
  assert.equal(amount, 500n);
  assert.equal(await token.read.tokenURI([1n]), `${URI}#3`);
  await expectRevert(token.read.tokenURI([2n]), "ERC721NonexistentToken", [2n]);
  await expectRevert(token.read.royaltyInfo([2n, 1n]), "ERC721NonexistentToken", [2n]);
  for (const id of ["0x80ac58cd", "0x5b5e139f", "0x2a55205a", "0x01ffc9a7"] as const) assert.equal(await token.read.supportsInterface([id]), true, id);
  assert.equal(await token.read.supportsInterface(["0xffffffff"]), false);
  assert.equal(await token.read.name(), "Muster Template License");
  assert.equal(await token.read.symbol(), "MUSTER-LIC");
});

test("setMarketplace: owner only, no zero address, set once (a second set reverts), emits MarketplaceSet", async () => {
  const { owner, minter, stranger, registry } = ctx;
  const fresh = await deploy(net, "LicenseToken", [registry, addr(owner)], owner);
  const attemptSet = (from: Wallet, a: Address) =>
    from.writeContract({ address: fresh, abi: licenseTokenAbi, functionName: "setMarketplace", args: [a], account: from.account, chain: null });
  await expectRevert(attemptSet(stranger, addr(stranger)), "OwnableUnauthorizedAccount", [addr(stranger)]);
  await expectRevert(attemptSet(owner, zeroAddress), "ZeroAddress", []);
  const { events } = await send(net, owner, fresh, licenseTokenAbi, "setMarketplace", [addr(minter)]);
  expectEvent(events, "MarketplaceSet", { marketplace: addr(minter) }, fresh);
  same(await licenseAt(net, fresh).read.marketplace(), addr(minter));
  await expectRevert(attemptSet(owner, addr(stranger)), "MarketplaceAlreadySet", [addr(minter)]);
  same(await licenseAt(net, fresh).read.marketplace(), addr(minter));
});

test("ownership: two-step, no renounce", async () => {
  const { owner, minter, stranger, token, call, attempt } = ctx;
  await expectRevert(attempt(owner, "setMarketplace", [addr(stranger)]), "MarketplaceAlreadySet", [addr(minter)]);
  await call(owner, "transferOwnership", [addr(stranger)]);
  same(await token.read.owner(), addr(owner));
  same(await token.read.pendingOwner(), addr(stranger));
  await call(stranger, "acceptOwnership");
  same(await token.read.owner(), addr(stranger));
  await expectRevert(attempt(stranger, "renounceOwnership"), "RenounceOwnershipDisabled", []);
  await expectRevert(attempt(owner, "revokeLicense", [1n]), "OwnableUnauthorizedAccount", [addr(owner)]);
});

test("constructor refuses a zero registry", async () => {
  const { owner } = ctx;
  await expectRevert(deploy(net, "LicenseToken", [zeroAddress, addr(owner)], owner), "ZeroAddress", []);
});

test.run();
