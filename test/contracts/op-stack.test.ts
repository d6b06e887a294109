// The marketplace on Hardhat's OP-stack simulation (`chainType: "op"`): purchases in both forms pay an L1 data
// fee on top of L2 execution, the SDK's estimatePurchaseCost tells the buyer both before paying, the Ignition
// module deploys to a local OP-type node (`hardhat node --chain-type op`), and the Base Sepolia checklist runs
// offline up to the network call.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "uvu";
import { network } from "hardhat";
import { parseEther, type Address } from "viem";
import { estimateL1Fee } from "viem/op-stack";
import { setSimulatedL1FeeParams } from "../../contracts/op-stack/l1-fee-params.ts";
import { deployMusterMarketplace } from "../../contracts/ignition/deploy.ts";
import { estimatePurchaseCost, marketplaceActions, MarketplaceContractError } from "../../sdk/src/index.ts";
import { startHardhatNode } from "../sdk/support/hardhat-node.ts";
import { ROOT } from "./support/build-lock.ts";
import { URI, deploySystem, marketplaceAbi, openNetwork, send, templateRegistryAbi, type Net, type Wallet } from "./support/fixture.ts";
import { scaled } from "../../core/plugin-api/testing/time-scale.ts";

setTimeout(() => { console.error("op-stack.test.ts timed out"); process.exit(1); }, scaled(420_000)).unref();

const PRICE = parseEther("0.01");
const l1FeeOf = (receipt: object) => BigInt((receipt as { l1Fee?: bigint | string }).l1Fee ?? 0n);

let net: Net;
test.before(async () => {
  net = await openNetwork("op");
  await setSimulatedL1FeeParams(net.connection.provider);
});
test.after(async () => { await net.connection.close(); });

test("on the OP-stack simulation both purchase forms pay L2 execution plus an L1 data fee, and the buyer pays exactly that", async () => {
  const [owner, creator, buyer, other] = net.wallets as Wallet[] as [Wallet, Wallet, Wallet, Wallet];
  const system = await deploySystem(net, owner);
  await send(net, creator, system.registry, templateRegistryAbi, "registerTemplate", [URI, PRICE, 500]);
  for (const [wallet, args] of [[buyer, [1n, PRICE]], [other, [1n]]] as const) {
    const before = await net.publicClient.getBalance({ address: wallet.account.address });
    const { receipt } = await send(net, wallet, system.market, marketplaceAbi, "purchase", args, PRICE);
    const l1Fee = l1FeeOf(receipt);
    assert.ok(l1Fee > 0n, "an L1 data fee is charged");
    const after = await net.publicClient.getBalance({ address: wallet.account.address });
    assert.equal(before - after, PRICE + receipt.gasUsed * receipt.effectiveGasPrice + l1Fee, `purchase(${args.length === 1 ? "templateId" : "templateId, maxPrice"}): price + L2 + L1`);
  }
});

test("estimatePurchaseCost shows price, L2 gas and the L1 data fee before paying; the purchase costs no more", async () => {
  const [owner, creator, buyer] = net.wallets as Wallet[] as [Wallet, Wallet, Wallet];
  const system = await deploySystem(net, owner);
  const addresses = { templateRegistry: system.registry, licenseToken: system.license, marketplace: system.market };
  await send(net, creator, system.registry, templateRegistryAbi, "registerTemplate", [URI, PRICE, 500]);
  const client = buyer.extend(marketplaceActions(addresses));
  const cost = await client.estimatePurchaseCost({ templateId: 1n });
  assert.equal(cost.price, PRICE);
  assert.equal(cost.opStack, true);
  assert.ok(cost.l2Gas > 100_000n && cost.l2Fee === cost.l2Gas * cost.l2GasPrice);
  assert.ok(cost.l1Fee > 0n, "the L1 data fee is estimated");
  assert.equal(cost.total, cost.price + cost.l2Fee + cost.l1Fee);
  // The same figure from the GasPriceOracle directly (viem's OP-stack action).
  const data = (await import("viem")).encodeFunctionData({ abi: marketplaceAbi, functionName: "purchase", args: [1n, PRICE] });
  assert.equal(cost.l1Fee, await estimateL1Fee(net.publicClient, { account: buyer.account, to: system.market, data, value: PRICE, chain: null } as never));

  const before = await net.publicClient.getBalance({ address: buyer.account.address });
  const { receipt } = await client.purchase({ templateId: 1n, maxPrice: cost.price });
  const paid = before - (await net.publicClient.getBalance({ address: buyer.account.address }));
  assert.ok(receipt.gasUsed <= cost.l2Gas, "L2 gas within the estimate");
  const l1Paid = l1FeeOf(receipt);
  // The signed transaction differs from the estimate's stub in a few bytes (nonce, gas fields, signature).
  assert.ok(l1Paid * 100n >= cost.l1Fee * 95n && l1Paid * 100n <= cost.l1Fee * 105n, `L1 fee ${l1Paid} within 5% of the estimate ${cost.l1Fee}`);
  assert.ok(paid <= cost.total + cost.l1Fee / 20n, `paid ${paid}, estimated at most ${cost.total}`);

  // A purchase that would revert is refused by the estimate, before anything is paid.
  const again = await estimatePurchaseCost(buyer, { addresses, templateId: 1n }).catch((e: unknown) => e);
  assert.ok(again instanceof MarketplaceContractError && again.errorName === "AlreadyLicensed", String(again));
  const onL1 = await openNetwork("l1");
  try {
    const [o, c, b] = onL1.wallets as Wallet[] as [Wallet, Wallet, Wallet];
    const l1System = await deploySystem(onL1, o);
    await send(onL1, c, l1System.registry, templateRegistryAbi, "registerTemplate", [URI, PRICE, 500]);
    const l1Cost = await estimatePurchaseCost(b, { addresses: { templateRegistry: l1System.registry, licenseToken: l1System.license, marketplace: l1System.market }, templateId: 1n });
    assert.equal(l1Cost.opStack, false);
    assert.equal(l1Cost.l1Fee, 0n, "no L1 data fee on an L1");
  } finally {
    await onL1.connection.close();
  }
});

test("Ignition deploys the marketplace to a local OP-type node (hardhat node --chain-type op); its receipts carry the L1 fee", async () => {
  const node = await startHardhatNode(60_000, { chainType: "op" });
  const deploymentId = `op-node-test-${process.pid}`;
  try {
    const connection = await network.connect({ network: "localOp", override: { url: node.url } });
    try {
      await setSimulatedL1FeeParams(connection.provider);
      const record = await deployMusterMarketplace(connection, { deploymentId, freshJournal: true, deploymentsFile: false });
      assert.equal(record.chainId, 31337);
      const [, creator, buyer] = await connection.viem.getWalletClients();
      const addresses = { templateRegistry: record.templateRegistry, licenseToken: record.licenseToken, marketplace: record.marketplace };
      await creator!.extend(marketplaceActions(addresses)).registerTemplate({ metadataURI: URI, price: PRICE, royaltyBps: 100 });
      const { receipt } = await buyer!.extend(marketplaceActions(addresses)).purchase({ templateId: 1n });
      assert.ok(l1FeeOf(receipt) > 0n, "the node's receipt has an L1 fee");
      assert.equal(await buyer!.extend(marketplaceActions(addresses)).hasLicense({ user: buyer!.account.address as Address, templateId: 1n }), true);
    } finally {
      await connection.close();
    }
  } finally {
    await node.stop();
    rmSync(`${ROOT}contracts/ignition/deployments/${deploymentId}`, { recursive: true, force: true });
  }
});

test("the Base Sepolia checklist runs offline: configuration variables resolve, the Ignition dry run deploys on a simulated 84532, no RPC call is made", async () => {
  const calls: string[] = [];
  const rpc = createServer((req, res) => { calls.push(req.url ?? ""); res.end(); });
  await new Promise<void>((r) => rpc.listen(0, "127.0.0.1", r));
  try {
    const env = {
      ...process.env,
      BASE_SEPOLIA_RPC_URL: `http://127.0.0.1:${(rpc.address() as AddressInfo).port}`,
      // Hardhat's public development key #0: a stand-in, never a real key.
      BASE_SEPOLIA_PRIVATE_KEY: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    };
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ["--import", "tsx", "contracts/ignition/base-sepolia-checklist.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (c) => (out += c));
      child.stderr.on("data", (c) => (out += c));
      child.on("close", (c) => resolve({ code: c, output: out }));
    });
    assert.equal(code, 0, output);
    assert.match(output, /deployer is 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266/);
    assert.match(output, /dry run on an OP-stack simulation of chain 84532/);
    assert.match(output, /offline checklist passed/);
    assert.doesNotMatch(output, /127\.0\.0\.1:\d+/, "the RPC URL is not printed");
    assert.deepEqual(calls, [], "no call reached the RPC URL");
  } finally {
    rpc.closeAllConnections();
    await new Promise((r) => rpc.close(r));
  }
});

test.run();
