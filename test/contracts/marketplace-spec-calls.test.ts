// The spec's marketplace calls, exactly as written (`purchase(templateId)`, `withdrawFees()`, …), from a client
// that knows only the spec: its ABI is the spec's signatures, not the generated one. Beside them, the safer
// overloads through the generated ABI, where viem picks the form by the number of arguments.
import assert from "node:assert/strict";
import { test } from "uvu";
import { decodeFunctionData, encodeFunctionData, parseAbi, parseEther, type Address } from "viem";
import {
  URI,
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

setTimeout(() => { console.error("marketplace-spec-calls.test.ts timed out"); process.exit(1); }, scaled(240_000)).unref();

/** The marketplace as the spec lists it (workspace-service.md, "Marketplace contract operations"). */
const specMarketplaceAbi = parseAbi([
  "function purchase(uint256 templateId) payable returns (uint256)",
  "function hasLicense(address user, uint256 templateId) view returns (bool)",
  "function setPlatformFee(uint16 feeBps)",
  "function withdrawFees()",
  "function pause()",
  "function unpause()",
]);

let net: Net;
let ctx: Awaited<ReturnType<typeof setup>>;
const PRICE = parseEther("1");
const FEE = PRICE * 250n / 10_000n;

async function setup() {
  const [owner, creator, buyer, other] = net.wallets as Wallet[] as [Wallet, Wallet, Wallet, Wallet];
  const system = await deploySystem(net, owner);
  await send(net, creator, system.registry, templateRegistryAbi, "registerTemplate", [URI, PRICE, 500]); // 1
  await send(net, creator, system.registry, templateRegistryAbi, "registerTemplate", ["ipfs://free", 0n, 0]); // 2
  const spec = (from: Wallet, fn: string, args: readonly unknown[] = [], value?: bigint) => send(net, from, system.market, specMarketplaceAbi, fn, args, value);
  const attemptSpec = (from: Wallet, fn: string, args: readonly unknown[] = [], value?: bigint) =>
    from.writeContract({ address: system.market, abi: specMarketplaceAbi, functionName: fn, args, account: from.account, chain: null, ...(value !== undefined ? { value } : {}) } as never);
  return { owner, creator, buyer, other, system, spec, attemptSpec };
}
async function fixture() { return setup(); }

const addr = (w: Wallet): Address => w.account.address;
const balance = (a: Address) => net.publicClient.getBalance({ address: a });
const gasCost = (r: { gasUsed: bigint; effectiveGasPrice: bigint }) => r.gasUsed * r.effectiveGasPrice;
/**
 * What a transaction cost its sender beyond its value: L2 execution, plus the L1 data fee on an OP-stack chain
 * (the receipt's `l1Fee`, which the simulated chain's client leaves as a hex quantity).
 */
const feesOf = (r: { gasUsed: bigint; effectiveGasPrice: bigint }) => gasCost(r) + BigInt((r as { l1Fee?: bigint | string | null }).l1Fee ?? 0n);

test.before(async () => { net = await openNetwork(); });
test.after(async () => { await net.connection.close(); });
test.before.each(async () => { ctx = await net.networkHelpers.loadFixture(fixture); });

test("purchase(templateId) as the spec writes it: charges the price, splits it, mints, counts, refunds the excess", async () => {
  const { creator, buyer, system, spec } = ctx;
  const creatorBefore = await balance(addr(creator));
  const buyerBefore = await balance(addr(buyer));
  const { receipt, events } = await spec(buyer, "purchase", [1n], PRICE + parseEther("0.3"));
  assert.equal(await balance(addr(buyer)), buyerBefore - PRICE - feesOf(receipt), "charged the price, not the value sent");
  assert.equal(await balance(addr(creator)), creatorBefore + PRICE - FEE, "creator gets price minus fee");
  assert.equal(await marketAt(net, system.market).read.accruedFees(), FEE, "the platform keeps the fee");
  assert.equal(await licenseAt(net, system.license).read.holdsValidLicense([addr(buyer), 1n]), true, "licence minted");
  assert.equal((await registryAt(net, system.registry).read.getTemplate([1n])).installs, 1n, "install counted");
  expectEvent(events, "Purchased", { templateId: 1n, buyer: addr(buyer), creator: addr(creator), tokenId: 1n, price: PRICE, fee: FEE, excess: parseEther("0.3") }, system.market);
  assert.equal(await net.publicClient.readContract({ address: system.market, abi: specMarketplaceAbi, functionName: "hasLicense", args: [addr(buyer), 1n] }), true);
});

test("purchase(templateId) refuses as the spec says: inactive or unknown template, too little ETH, already licensed, paused", async () => {
  const { owner, creator, buyer, other, system, spec, attemptSpec } = ctx;
  await expectRevert(attemptSpec(buyer, "purchase", [1n], PRICE - 1n), "InsufficientPayment", [1n, PRICE, PRICE - 1n]);
  await expectRevert(attemptSpec(buyer, "purchase", [99n], PRICE), "TemplateNotFound", [99n]);
  await spec(buyer, "purchase", [2n], 0n); // free
  await expectRevert(attemptSpec(buyer, "purchase", [2n], 0n), "AlreadyLicensed", [addr(buyer), 2n]);
  await send(net, creator, system.registry, templateRegistryAbi, "deactivateTemplate", [1n]);
  await expectRevert(attemptSpec(other, "purchase", [1n], PRICE), "TemplateInactive", [1n]);
  await spec(owner, "pause");
  await expectRevert(attemptSpec(other, "purchase", [2n], 0n), "EnforcedPause");
  await spec(owner, "unpause");
  await spec(other, "purchase", [2n], 0n);
});

test("withdrawFees() as the spec writes it: owner only, pays the owner every accrued fee, emits FeesWithdrawn(owner)", async () => {
  const { owner, buyer, other, system, spec, attemptSpec } = ctx;
  await expectRevert(attemptSpec(owner, "withdrawFees"), "NoFeesToWithdraw");
  await spec(buyer, "purchase", [1n], PRICE);
  await expectRevert(attemptSpec(other, "withdrawFees"), "OwnableUnauthorizedAccount", [addr(other)]);
  const before = await balance(addr(owner));
  const { receipt, events } = await spec(owner, "withdrawFees");
  assert.equal(await balance(addr(owner)), before + FEE - feesOf(receipt));
  expectEvent(events, "FeesWithdrawn", { to: addr(owner), amount: FEE }, system.market);
  assert.equal(await marketAt(net, system.market).read.accruedFees(), 0n);
});

test("setPlatformFee as the spec writes it applies to the next purchase", async () => {
  const { owner, buyer, system, spec } = ctx;
  await spec(owner, "setPlatformFee", [1000]);
  const { events } = await spec(buyer, "purchase", [1n], PRICE);
  expectEvent(events, "Purchased", { fee: PRICE / 10n }, system.market);
});

test("the generated ABI encodes both forms: viem picks the overload by the number of arguments", async () => {
  const { owner, buyer, other, system } = ctx;
  const spec = encodeFunctionData({ abi: marketplaceAbi, functionName: "purchase", args: [1n] });
  const safer = encodeFunctionData({ abi: marketplaceAbi, functionName: "purchase", args: [1n, PRICE] });
  assert.equal(spec.slice(0, 10), "0xefef39a1", "purchase(uint256)");
  assert.equal(safer.slice(0, 10), "0x70876c98", "purchase(uint256,uint256)");
  assert.deepEqual(decodeFunctionData({ abi: marketplaceAbi, data: safer }).args, [1n, PRICE]);
  await send(net, buyer, system.market, marketplaceAbi, "purchase", [1n], PRICE);
  await expectRevert(
    other.writeContract({ address: system.market, abi: marketplaceAbi, functionName: "purchase", args: [1n, PRICE - 1n], value: PRICE, account: other.account, chain: null }),
    "PriceAboveMax",
    [1n, PRICE, PRICE - 1n],
  );
  const noFees = encodeFunctionData({ abi: marketplaceAbi, functionName: "withdrawFees", args: [] });
  assert.equal(noFees, "0x476343ee", "withdrawFees()");
  const { events } = await send(net, owner, system.market, marketplaceAbi, "withdrawFees", [addr(other)]);
  expectEvent(events, "FeesWithdrawn", { to: addr(other), amount: FEE }, system.market);
});

test.run();
