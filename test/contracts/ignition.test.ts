// The Ignition module on Hardhat's in-process network: deploys, wires and hands ownership to the deployer.
import assert from "node:assert/strict";
import { test } from "uvu";
import { parseEther } from "viem";
import { deployMusterMarketplace } from "../../contracts/ignition/deploy.ts";
import { URI, licenseAt, marketAt, marketplaceAbi, openNetwork, registryAt, send, templateRegistryAbi, type Net } from "./support/fixture.ts";
import { scaled } from "../../core/plugin-api/testing/time-scale.ts";

setTimeout(() => { console.error("ignition.test.ts timed out"); process.exit(1); }, scaled(180_000)).unref();

let net: Net;
test.before(async () => { net = await openNetwork(); });
test.after(async () => { await net.connection.close(); });

test("the module deploys the three contracts wired together and owned by the deployer", async () => {
  const [owner, creator, buyer] = net.wallets;
  assert.ok(owner && creator && buyer);
  const record = await deployMusterMarketplace(net.connection, { deploymentsFile: false });
  assert.equal(record.chainId, 31337);
  const registry = registryAt(net, record.templateRegistry);
  const license = licenseAt(net, record.licenseToken);
  const market = marketAt(net, record.marketplace);
  assert.equal((await registry.read.marketplace()).toLowerCase(), record.marketplace.toLowerCase());
  assert.equal((await license.read.marketplace()).toLowerCase(), record.marketplace.toLowerCase());
  assert.equal((await license.read.registry()).toLowerCase(), record.templateRegistry.toLowerCase());
  assert.equal((await market.read.registry()).toLowerCase(), record.templateRegistry.toLowerCase());
  assert.equal((await market.read.licenseToken()).toLowerCase(), record.licenseToken.toLowerCase());
  for (const c of [registry, license, market]) assert.equal((await c.read.owner()).toLowerCase(), owner.account.address.toLowerCase());

  await send(net, creator, record.templateRegistry, templateRegistryAbi, "registerTemplate", [URI, parseEther("1"), 100]);
  await send(net, buyer, record.marketplace, marketplaceAbi, "purchase", [1n, parseEther("1")], parseEther("1"));
  assert.equal(await market.read.hasLicense([buyer.account.address, 1n]), true);
});

test.run();
