// A pack tied to a marketplace template installs only for a buyer holding a valid licence,
// checked on a real local chain (hardhat node, the marketplace deployed with its Ignition
// module, a template registered and bought through the SDK).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { network } from "hardhat";
import { createPublicClient, createWalletClient, http, parseEther, type Address } from "viem";
import { hardhat } from "viem/chains";
import { deployMusterMarketplace } from "../../../contracts/ignition/deploy.ts";
import { getMarketplaceDeployment, loadMarketplaceDeployments, marketplaceActions, type MarketplaceAddresses } from "../../../sdk/src/index.ts";
import { buildContracts } from "../../contracts/support/build-lock.ts";
import { startHardhatNode, type HardhatNode } from "../../sdk/support/hardhat-node.ts";
import { ORG, startAgentsRig, type AgentsRig } from "./agents-rig.ts";

setTimeout(() => {
  console.error("packs-licence.test.ts timed out");
  process.exit(1);
}, 240_000).unref();

const deploymentId = `agents-packs-test-${process.pid}`;
const ignitionJournal = new URL(`../../../contracts/ignition/deployments/${deploymentId}`, import.meta.url).pathname;
const pack = (name: string) =>
  JSON.stringify({ name, version: "1.0.0", description: "licensed", templateId: 1, agents: [{ id: `${name}-a`, name: "A", role: "operator", model: "m", tier: 3 }] });

const t = suite<{ node: HardhatNode; rig: AgentsRig; tmp: string; buyer: Address; other: Address }>("agents: licensed packs on a local chain");

t.before(async (ctx) => {
  await setUp(ctx).catch(async (error: unknown) => {
    console.error("packs-licence set-up failed:", error);
    // uvu runs no after hook for a failed before: stop what started, or the chain keeps the process alive.
    await ctx.rig?.close();
    await ctx.node?.stop();
    throw error;
  });
});

async function setUp(ctx: { node: HardhatNode; rig: AgentsRig; tmp: string; buyer: Address; other: Address }): Promise<void> {
  await buildContracts();
  ctx.node = await startHardhatNode();
  ctx.tmp = mkdtempSync(join(tmpdir(), "muster-agents-chain-"));
  const deploymentsFile = join(ctx.tmp, "deployments.json");
  const connection = await network.connect({ network: "localhost", override: { url: ctx.node.url } });
  try {
    await deployMusterMarketplace(connection, { deploymentId, freshJournal: true, deploymentsFile });
  } finally {
    await connection.close();
    rmSync(ignitionJournal, { recursive: true, force: true });
  }
  const publicClient = createPublicClient({ chain: hardhat, transport: http(ctx.node.url) });
  const deployment = getMarketplaceDeployment(await loadMarketplaceDeployments(deploymentsFile), await publicClient.getChainId());
  // The deployment record also carries chainId, blockNumber and deployedAt; the config takes the three addresses.
  const addresses: MarketplaceAddresses = { templateRegistry: deployment.templateRegistry, licenseToken: deployment.licenseToken, marketplace: deployment.marketplace };
  const accounts = await createWalletClient({ chain: hardhat, transport: http(ctx.node.url) }).getAddresses();
  const wallet = (account: Address) => createWalletClient({ account, chain: hardhat, transport: http(ctx.node.url) }).extend(marketplaceActions(addresses));
  await wallet(accounts[1]!).registerTemplate({ metadataURI: "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/t.json", price: parseEther("0.01"), royaltyBps: 500 });
  await wallet(accounts[2]!).purchase({ templateId: 1n, value: parseEther("0.01") });
  ctx.buyer = accounts[2]!;
  ctx.other = accounts[3]!;
  ctx.rig = await startAgentsRig({
    files: { "company/org_structure.yaml": ORG, "packs/first.json": pack("first"), "packs/second.json": pack("second") },
    agentsConfig: { marketplace: { rpcUrl: ctx.node.url, addresses, timeoutMs: 2_000 } },
  });
}

t.after(async (ctx) => {
  await ctx.rig?.close();
  await ctx.node?.stop();
  if (ctx.tmp) rmSync(ctx.tmp, { recursive: true, force: true });
});

t("no licence → 403 LICENSE_REQUIRED with nothing written; the holder installs; the chain down → 503", async (ctx) => {
  const { rig } = ctx;
  const refused = await rig.h.json("/api/packs", { method: "POST", body: { name: "first", buyer: ctx.other } });
  assert.is(refused.status, 403);
  assert.is(refused.body.error.code, "LICENSE_REQUIRED");
  assert.is((await rig.h.json("/api/agents/first-a")).status, 404);

  const held = await rig.h.json("/api/packs", { method: "POST", body: { name: "first", buyer: ctx.buyer } });
  assert.is(held.status, 201, JSON.stringify(held.body));
  assert.equal(held.body.orgEntries, ["first-a"]);

  await ctx.node.stop();
  const down = await rig.h.json("/api/packs", { method: "POST", body: { name: "second", buyer: ctx.buyer } });
  assert.is(down.status, 503);
  assert.is(down.body.error.code, "LICENSE_CHECK_UNAVAILABLE");
  assert.is((await rig.h.json("/api/agents/second-a")).status, 404);
});

t.run();
