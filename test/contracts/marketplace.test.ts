import assert from "node:assert/strict";
import { test } from "uvu";
import { decodeEventLog, maxUint256, parseEther, zeroAddress, type Address } from "viem";
import {
  URI,
  deploy,
  deploySystem,
  expectEvent,
  expectRevert,
  licenseAt,
  marketAt,
  marketplaceAbi,
  openNetwork,
  registryAt,
  send,
  templateRegistryAbi,
  type Net,
  type Wallet,
} from "./support/fixture.ts";
import { scaled } from "../../core/plugin-api/testing/time-scale.ts";

setTimeout(() => { console.error("marketplace.test.ts timed out"); process.exit(1); }, scaled(240_000)).unref();

const reentrantActorAbi = [
  { type: "function", name: "setAttack", stateMutability: "nonpayable", inputs: [{ name: "attack_", type: "uint8" }, { name: "templateId", type: "uint256" }], outputs: [] },
  { type: "function", name: "buy", stateMutability: "payable", inputs: [{ name: "templateId", type: "uint256" }], outputs: [{ type: "uint256" }] },
  { type: "function", name: "register", stateMutability: "nonpayable", inputs: [{ name: "registry", type: "address" }, { name: "uri", type: "string" }, { name: "price", type: "uint256" }], outputs: [{ type: "uint256" }] },
  { type: "event", name: "ReentryAttempted", inputs: [{ name: "attack", type: "uint8", indexed: false }, { name: "succeeded", type: "bool", indexed: false }, { name: "returnData", type: "bytes", indexed: false }] },
] as const;
const refusingCreatorAbi = [
  { type: "function", name: "buy", stateMutability: "payable", inputs: [{ name: "market", type: "address" }, { name: "templateId", type: "uint256" }], outputs: [{ type: "uint256" }] },
  { type: "function", name: "register", stateMutability: "nonpayable", inputs: [{ name: "registry", type: "address" }, { name: "uri", type: "string" }, { name: "price", type: "uint256" }, { name: "royaltyBps", type: "uint16" }], outputs: [{ type: "uint256" }] },
  { type: "function", name: "withdraw", stateMutability: "nonpayable", inputs: [{ name: "market", type: "address" }], outputs: [] },
  { type: "function", name: "withdrawTo", stateMutability: "nonpayable", inputs: [{ name: "market", type: "address" }, { name: "to", type: "address" }], outputs: [] },
] as const;
const REENTRANCY_GUARD_SELECTOR = "0x3ee5aeb5"; // ReentrancyGuardReentrantCall()

let net: Net;
let ctx: Awaited<ReturnType<typeof setup>>;

const PRICE = parseEther("1");
async function setup() {
  const [owner, creator, buyer, other, stranger, newOwner] = net.wallets as Wallet[] as [Wallet, Wallet, Wallet, Wallet, Wallet, Wallet];
  const system = await deploySystem(net, owner);
  const registry = registryAt(net, system.registry);
  const license = licenseAt(net, system.license);
  const market = marketAt(net, system.market);
  await send(net, creator, system.registry, templateRegistryAbi, "registerTemplate", [URI, PRICE, 500]); // 1: paid
  await send(net, creator, system.registry, templateRegistryAbi, "registerTemplate", ["ipfs://free", 0n, 0]); // 2: free
  // maxPrice defaults to no limit: the tests of the limit pass one.
  const buy = (from: Wallet, templateId: bigint, value: bigint, maxPrice = maxUint256) =>
    send(net, from, system.market, marketplaceAbi, "purchase", [templateId, maxPrice], value);
  const attemptBuy = (from: Wallet, templateId: bigint, value: bigint, maxPrice = maxUint256) =>
    from.writeContract({ address: system.market, abi: marketplaceAbi, functionName: "purchase", args: [templateId, maxPrice], value, account: from.account, chain: null });
  const call = (from: Wallet, fn: string, args: readonly unknown[] = []) => send(net, from, system.market, marketplaceAbi, fn, args);
  const attempt = (from: Wallet, fn: string, args: readonly unknown[] = []) =>
    from.writeContract({ address: system.market, abi: marketplaceAbi, functionName: fn, args, account: from.account, chain: null } as never);
  return { owner, creator, buyer, other, stranger, newOwner, system, registry, license, market, buy, attemptBuy, call, attempt };
}
async function fixture() { return setup(); }

const addr = (w: Wallet): Address => w.account.address;
const balance = (a: Address) => net.publicClient.getBalance({ address: a });
const gasCost = (r: { gasUsed: bigint; effectiveGasPrice: bigint }) => r.gasUsed * r.effectiveGasPrice;

test.before(async () => { net = await openNetwork(); });
test.after(async () => { await net.connection.close(); });
test.before.each(async () => { ctx = await net.networkHelpers.loadFixture(fixture); });

test("a paid purchase charges the price, pays creator and platform, mints, counts the install", async () => {
  const { creator, buyer, system, registry, license, market, buy } = ctx;
  const creatorBefore = await balance(addr(creator));
  const buyerBefore = await balance(addr(buyer));
  const { receipt, events } = await buy(buyer, 1n, PRICE);
  const fee = PRICE * 250n / 10_000n;
  assert.equal(await balance(addr(buyer)), buyerBefore - PRICE - gasCost(receipt), "charged exactly the price");
  assert.equal(await balance(addr(creator)), creatorBefore + PRICE - fee, "creator gets price minus fee");
  assert.equal(await market.read.accruedFees(), fee, "platform keeps the fee");
  assert.equal(await balance(system.market), fee);
  assert.equal(await license.read.holdsValidLicense([addr(buyer), 1n]), true);
  assert.equal(await market.read.hasLicense([addr(buyer), 1n]), true);
  assert.equal((await registry.read.getTemplate([1n])).installs, 1n);
  expectEvent(events, "TemplateInstalled", { templateId: 1n, buyer: addr(buyer), installs: 1n }, system.registry);
  expectEvent(events, "Transfer", { from: zeroAddress, to: addr(buyer), tokenId: 1n }, system.license);
  expectEvent(events, "LicenseMinted", { tokenId: 1n, templateId: 1n, to: addr(buyer) }, system.license);
  expectEvent(events, "Purchased", { templateId: 1n, buyer: addr(buyer), creator: addr(creator), tokenId: 1n, price: PRICE, fee, excess: 0n }, system.market);
});

test("excess is refunded on paid and free templates; nothing is kept", async () => {
  const { buyer, system, market, buy } = ctx;
  const before = await balance(addr(buyer));
  const paid = await buy(buyer, 1n, PRICE + parseEther("0.5"));
  expectEvent(paid.events, "Purchased", { excess: parseEther("0.5") });
  const free = await buy(buyer, 2n, parseEther("0.3"));
  expectEvent(free.events, "Purchased", { templateId: 2n, price: 0n, fee: 0n, excess: parseEther("0.3") });
  assert.equal(await balance(addr(buyer)), before - PRICE - gasCost(paid.receipt) - gasCost(free.receipt));
  assert.equal(await balance(system.market), await market.read.accruedFees());
  assert.equal(await market.read.totalHeld(), 0n);
});

test("purchase refusals: unknown, inactive, underpaid, already licensed — each changes nothing", async () => {
  const { creator, buyer, system, registry, license, market, buy, attemptBuy } = ctx;
  await expectRevert(attemptBuy(buyer, 9n, PRICE), "TemplateNotFound", [9n]);
  await expectRevert(attemptBuy(buyer, 1n, PRICE - 1n), "InsufficientPayment", [1n, PRICE, PRICE - 1n]);
  await buy(buyer, 1n, PRICE);
  await expectRevert(attemptBuy(buyer, 1n, PRICE), "AlreadyLicensed", [addr(buyer), 1n]);
  await send(net, creator, system.registry, templateRegistryAbi, "deactivateTemplate", [2n]);
  await expectRevert(attemptBuy(buyer, 2n, 0n), "TemplateInactive", [2n]);
  assert.equal((await registry.read.getTemplate([1n])).installs, 1n);
  assert.equal((await registry.read.getTemplate([2n])).installs, 0n);
  assert.equal(await license.read.totalMinted(), 1n);
  assert.equal(await market.read.accruedFees(), PRICE * 250n / 10_000n);
});

test("a buyer can buy again after giving the license away or having it revoked", async () => {
  const { owner, buyer, other, system, license, buy } = ctx;
  await buy(buyer, 1n, PRICE);
  await send(net, buyer, system.license, licenseAbiOf(), "transferFrom", [addr(buyer), addr(other), 1n]);
  assert.equal(await license.read.holdsValidLicense([addr(buyer), 1n]), false);
  await buy(buyer, 1n, PRICE); // token 2
  await send(net, owner, system.license, licenseAbiOf(), "revokeLicense", [2n]);
  await buy(buyer, 1n, PRICE); // token 3
  assert.deepEqual(await license.read.licensesOf([addr(buyer)]), [1n]);
});

test("pause stops purchases, not withdrawals; pause and unpause are owner-only with events", async () => {
  const { owner, buyer, stranger, market, buy, call, attempt, attemptBuy } = ctx;
  await buy(buyer, 1n, PRICE);
  await expectRevert(attempt(stranger, "pause"), "OwnableUnauthorizedAccount", [addr(stranger)]);
  await expectRevert(attempt(owner, "unpause"), "ExpectedPause", []);
  const paused = await call(owner, "pause");
  expectEvent(paused.events, "Paused", { account: addr(owner) });
  assert.equal(await market.read.paused(), true);
  await expectRevert(attempt(owner, "pause"), "EnforcedPause", []);
  await expectRevert(attemptBuy(stranger, 2n, 0n), "EnforcedPause", []);
  await call(owner, "withdrawFees", [addr(owner)]); // still works
  await expectRevert(attempt(stranger, "unpause"), "OwnableUnauthorizedAccount", [addr(stranger)]);
  const unpaused = await call(owner, "unpause");
  expectEvent(unpaused.events, "Unpaused", { account: addr(owner) });
  await buy(stranger, 2n, 0n);
});

test("setPlatformFee: owner only, at most 1000 bps, emits PlatformFeeUpdated, applies to the next sale", async () => {
  const { owner, stranger, buyer, market, call, attempt, buy } = ctx;
  assert.equal(await market.read.platformFeeBps(), 250);
  await expectRevert(attempt(stranger, "setPlatformFee", [100]), "OwnableUnauthorizedAccount", [addr(stranger)]);
  await expectRevert(attempt(owner, "setPlatformFee", [1001]), "FeeTooHigh", [1001, 1000]);
  assert.equal(await market.read.platformFeeBps(), 250);
  const { events } = await call(owner, "setPlatformFee", [1000]);
  expectEvent(events, "PlatformFeeUpdated", { previousFeeBps: 250, newFeeBps: 1000 });
  const sale = await buy(buyer, 1n, PRICE);
  expectEvent(sale.events, "Purchased", { fee: PRICE / 10n });
  await call(owner, "setPlatformFee", [0]);
  const free = await buy(stranger, 1n, PRICE);
  expectEvent(free.events, "Purchased", { fee: 0n });
});

test("withdrawFees(to): owner only, refuses when empty or to the zero address, pays `to` and emits FeesWithdrawn", async () => {
  const { owner, stranger, buyer, system, market, buy, call, attempt } = ctx;
  await expectRevert(attempt(owner, "withdrawFees", [addr(owner)]), "NoFeesToWithdraw", []);
  await buy(buyer, 1n, PRICE);
  const fee = PRICE * 250n / 10_000n;
  await expectRevert(attempt(stranger, "withdrawFees", [addr(stranger)]), "OwnableUnauthorizedAccount", [addr(stranger)]);
  await expectRevert(attempt(owner, "withdrawFees", [zeroAddress]), "ZeroAddress", []);
  const before = await balance(addr(owner));
  const { receipt, events } = await call(owner, "withdrawFees", [addr(owner)]);
  expectEvent(events, "FeesWithdrawn", { to: addr(owner), amount: fee });
  assert.equal(await balance(addr(owner)), before + fee - gasCost(receipt));
  assert.equal(await market.read.accruedFees(), 0n);
  assert.equal(await balance(system.market), 0n);
});

test("withdrawFees(to) sends the fees elsewhere, so an owner that cannot receive ETH can still collect them", async () => {
  const { owner, stranger, buyer, system, market, buy, call } = ctx;
  await buy(buyer, 1n, PRICE);
  const fee = PRICE * 250n / 10_000n;
  const ownerBefore = await balance(addr(owner));
  const targetBefore = await balance(addr(stranger));
  const { receipt, events } = await call(owner, "withdrawFees", [addr(stranger)]);
  expectEvent(events, "FeesWithdrawn", { to: addr(stranger), amount: fee });
  assert.equal(await balance(addr(stranger)), targetBefore + fee, "the recipient got the fees");
  assert.equal(await balance(addr(owner)), ownerBefore - gasCost(receipt), "the owner only paid gas");
  assert.equal(await market.read.accruedFees(), 0n);
  assert.equal(await balance(system.market), 0n);
});

test("purchase(templateId, maxPrice): a price raised above the buyer's limit is refused and changes nothing", async () => {
  const { creator, buyer, system, registry, license, market, buy, attemptBuy } = ctx;
  await send(net, creator, system.registry, templateRegistryAbi, "updateTemplate", [1n, URI, PRICE * 2n]); // raised under the buyer
  await expectRevert(attemptBuy(buyer, 1n, PRICE * 3n, PRICE), "PriceAboveMax", [1n, PRICE * 2n, PRICE]);
  assert.equal(await license.read.holdsValidLicense([addr(buyer), 1n]), false);
  assert.equal((await registry.read.getTemplate([1n])).installs, 0n);
  assert.equal(await market.read.accruedFees(), 0n);
  const { events } = await buy(buyer, 1n, PRICE * 3n, PRICE * 2n); // a limit equal to the price is fine
  expectEvent(events, "Purchased", { price: PRICE * 2n, excess: PRICE });
});

test("a buyer contract that overpays and refuses the refund: the purchase reverts, nothing is held", async () => {
  const { owner, system, license, market } = ctx;
  const refuser = await deploy(net, "EthRefusingCreator", [], owner);
  await expectRevert(
    owner.writeContract({ address: refuser, abi: refusingCreatorAbi, functionName: "buy", args: [system.market, 1n], value: PRICE + 7n, account: owner.account, chain: null }),
    "RefundFailed",
    [refuser, 7n],
  );
  assert.equal(await license.read.holdsValidLicense([refuser, 1n]), false);
  assert.equal(await market.read.totalHeld(), 0n);
  assert.equal(await balance(system.market), 0n);
  await send(net, owner, refuser, refusingCreatorAbi, "buy", [system.market, 1n], PRICE); // the exact price works
  assert.equal(await license.read.holdsValidLicense([refuser, 1n]), true);
  assert.equal(await market.read.totalHeld(), 0n);
});

test("ETH forced in (selfdestruct) is surplus: balance >= fees + held, and only the owner sweeps it", async () => {
  const { owner, buyer, stranger, system, market, buy, call, attempt } = ctx;
  await buy(buyer, 1n, PRICE);
  const fee = PRICE * 250n / 10_000n;
  assert.equal(await market.read.surplus(), 0n);
  await expectRevert(attempt(owner, "sweepSurplus", [addr(stranger)]), "NoSurplus", []);
  const forced = parseEther("0.3");
  await net.viem.deployContract("EthForcer", [system.market], { value: forced, client: { wallet: owner } });
  assert.equal(await balance(system.market), fee + forced, "the ETH arrived without a call");
  assert.equal(await market.read.surplus(), forced);
  assert.ok((await balance(system.market)) >= (await market.read.accruedFees()) + (await market.read.totalHeld()));
  await expectRevert(attempt(stranger, "sweepSurplus", [addr(stranger)]), "OwnableUnauthorizedAccount", [addr(stranger)]);
  await expectRevert(attempt(owner, "sweepSurplus", [zeroAddress]), "ZeroAddress", []);
  const before = await balance(addr(stranger));
  const { events } = await call(owner, "sweepSurplus", [addr(stranger)]);
  expectEvent(events, "SurplusSwept", { to: addr(stranger), amount: forced });
  assert.equal(await balance(addr(stranger)), before + forced);
  assert.equal(await market.read.surplus(), 0n);
  assert.equal(await market.read.accruedFees(), fee, "fees untouched");
  assert.equal(await balance(system.market), fee);
});

test("a creator that refuses ETH blocks nobody and loses nothing: its share is held for withdrawal", async () => {
  const { owner, buyer, other, stranger, system, market, buy, attempt } = ctx;
  const refuser = await deploy(net, "EthRefusingCreator", [], owner);
  await send(net, owner, refuser, refusingCreatorAbi, "register", [system.registry, "ipfs://refuser", PRICE, 0]); // template 3
  const before = await balance(addr(buyer));
  const sale = await buy(buyer, 3n, PRICE + 5n);
  const share = PRICE - PRICE * 250n / 10_000n;
  expectEvent(sale.events, "PaymentHeld", { account: refuser, amount: share });
  assert.equal(await balance(addr(buyer)), before - PRICE - gasCost(sale.receipt), "buyer charged exactly the price");
  assert.equal(await market.read.heldBalanceOf([refuser]), share);
  assert.equal(await market.read.totalHeld(), share);
  await buy(other, 1n, PRICE); // other creators are unaffected
  assert.equal(await balance(system.market), (await market.read.accruedFees()) + share);

  await expectRevert(
    owner.writeContract({ address: refuser, abi: refusingCreatorAbi, functionName: "withdraw", args: [system.market], account: owner.account, chain: null }),
    "TransferFailed",
    [refuser, share],
  );
  await expectRevert(attempt(stranger, "withdraw"), "NothingToWithdraw", [addr(stranger)]);
  await expectRevert(attempt(stranger, "withdrawTo", [zeroAddress]), "ZeroAddress", []);
  await send(net, owner, system.market, marketplaceAbi, "pause");
  const target = addr(stranger);
  const targetBefore = await balance(target);
  const { events } = await send(net, owner, refuser, refusingCreatorAbi, "withdrawTo", [system.market, target]);
  expectEvent(events, "Withdrawn", { account: refuser, to: target, amount: share });
  assert.equal(await balance(target), targetBefore + share, "withdrawn while paused");
  assert.equal(await market.read.totalHeld(), 0n);
});

test("a re-entrant buyer cannot mint twice: the refund's re-entry hits the guard", async () => {
  const { owner, license, system, market } = ctx;
  const attacker = await deploy(net, "ReentrantActor", [system.market], owner);
  await send(net, owner, attacker, reentrantActorAbi, "setAttack", [1, 2n]); // re-enter purchase(2)
  const { receipt } = await send(net, owner, attacker, reentrantActorAbi, "buy", [1n], PRICE * 2n);
  const attempt = receipt.logs
    .filter((l) => l.address.toLowerCase() === attacker.toLowerCase())
    .map((l) => decodeEventLog({ abi: reentrantActorAbi, data: l.data, topics: l.topics }))[0];
  assert.ok(attempt, "the attacker tried");
  assert.equal(attempt.args.succeeded, false);
  assert.equal(attempt.args.returnData, REENTRANCY_GUARD_SELECTOR);
  assert.equal(await license.read.balanceOf([attacker]), 1n);
  assert.equal(await license.read.holdsValidLicense([attacker, 2n]), false);
  assert.equal(await balance(attacker), PRICE, "refund delivered");
  assert.equal(await balance(system.market), (await market.read.accruedFees()) + (await market.read.totalHeld()));
});

test("a re-entrant creator cannot withdraw more than its own share", async () => {
  const { owner, buyer, system, market, buy } = ctx;
  const attacker = await deploy(net, "ReentrantActor", [system.market], owner);
  await send(net, owner, attacker, reentrantActorAbi, "register", [system.registry, "ipfs://attacker", PRICE]); // template 3
  await send(net, owner, attacker, reentrantActorAbi, "setAttack", [2, 0n]); // re-enter withdraw()
  const { receipt } = await buy(buyer, 3n, PRICE);
  const attempt = receipt.logs
    .filter((l) => l.address.toLowerCase() === attacker.toLowerCase())
    .map((l) => decodeEventLog({ abi: reentrantActorAbi, data: l.data, topics: l.topics }))[0];
  assert.ok(attempt);
  assert.equal(attempt.args.succeeded, false);
  const share = PRICE - PRICE * 250n / 10_000n;
  assert.equal((await balance(attacker)) + (await market.read.heldBalanceOf([attacker])), share);
  assert.equal(await balance(system.market), (await market.read.accruedFees()) + (await market.read.totalHeld()));
});

test("ownership is two-step and cannot be renounced; plain ETH transfers are refused", async () => {
  const { owner, newOwner, stranger, system, market, call, attempt } = ctx;
  await call(owner, "transferOwnership", [addr(newOwner)]);
  await call(owner, "setPlatformFee", [300]); // old owner keeps its rights until acceptance
  await expectRevert(attempt(stranger, "acceptOwnership"), "OwnableUnauthorizedAccount", [addr(stranger)]);
  const { events } = await call(newOwner, "acceptOwnership");
  expectEvent(events, "OwnershipTransferred", { previousOwner: addr(owner), newOwner: addr(newOwner) });
  await expectRevert(attempt(owner, "setPlatformFee", [100]), "OwnableUnauthorizedAccount", [addr(owner)]);
  await expectRevert(attempt(newOwner, "renounceOwnership"), "RenounceOwnershipDisabled", []);
  assert.equal((await market.read.owner()).toLowerCase(), addr(newOwner).toLowerCase());
  await assert.rejects(stranger.sendTransaction({ to: system.market, value: 1n, account: stranger.account, chain: null }));
});

test("wiring and construction: zero addresses refused; an unwired marketplace cannot sell", async () => {
  const { owner, buyer, system } = ctx;
  await expectRevert(deploy(net, "Marketplace", [zeroAddress, system.license, addr(owner)], owner), "ZeroAddress", []);
  await expectRevert(deploy(net, "Marketplace", [system.registry, zeroAddress, addr(owner)], owner), "ZeroAddress", []);
  const rogue = await deploy(net, "Marketplace", [system.registry, system.license, addr(owner)], owner);
  await expectRevert(
    buyer.writeContract({ address: rogue, abi: marketplaceAbi, functionName: "purchase", args: [1n, PRICE], value: PRICE, account: buyer.account, chain: null }),
    "NotMarketplace",
    [rogue],
  );
});

function licenseAbiOf() {
  return licenseAt(net, ctx.system.license).abi;
}

test.run();
