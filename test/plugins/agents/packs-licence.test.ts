// A pack tied to a marketplace template installs only for a requester who proves it controls an address that
// holds a valid licence: real signatures from the Hardhat node's accounts (EIP-712 over this Muster, the pack,
// a server nonce and an expiry), a contract wallet through ERC-1271, on a real local chain (hardhat node, the
// marketplace deployed with its Ignition module, templates registered and bought through the SDK).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { network } from "hardhat";
import { createPublicClient, createWalletClient, encodeFunctionData, http, parseEther, type Address, type Hex } from "viem";
import { hardhat } from "viem/chains";
import { deployMusterMarketplace } from "../../../contracts/ignition/deploy.ts";
import {
  createMusterClient,
  getMarketplaceDeployment,
  installLicensedPack,
  isMusterApiError,
  loadMarketplaceDeployments,
  marketplaceAbi,
  marketplaceActions,
  packLicenceProofTypes,
  signPackLicence,
  type MarketplaceAddresses,
  type MusterClient,
  type PackLicenceChallenge,
} from "../../../sdk/src/index.ts";
import { mnemonicToAccount } from "viem/accounts";
import { toHex } from "viem";
import { runPacksCommand } from "../../../plugins/agents/cli/packs-command.ts";
import { buildContracts } from "../../contracts/support/build-lock.ts";
import { startHardhatNode, type HardhatNode } from "../../sdk/support/hardhat-node.ts";
import { ORG, startAgentsRig, type AgentsRig } from "./agents-rig.ts";
import type { ApiBody } from "@muster/plugin/testing";

setTimeout(() => {
  console.error("packs-licence.test.ts timed out");
  process.exit(1);
}, 300_000).unref();

const deploymentId = `agents-packs-test-${process.pid}`;
const ignitionJournal = new URL(`../../../contracts/ignition/deployments/${deploymentId}`, import.meta.url).pathname;
const pack = (name: string, templateId: number) =>
  JSON.stringify({ name, version: "1.0.0", description: "licensed", templateId, agents: [{ id: `${name}-a`, name: "A", role: "operator", model: "m", tier: 3 }] });
const PACKS = { first: 1, second: 1, third: 1, wallet: 2, "wallet-b": 2, late: 1, cli: 1 } as const;

interface Ctx {
  node: HardhatNode;
  rig: AgentsRig;
  tmp: string;
  addresses: MarketplaceAddresses;
  accounts: Address[];
  /** accounts[2]: bought template 1. accounts[3]: holds nothing (until it buys, late in the suite). */
  holder: Address;
  other: Address;
  /** An ERC-1271 wallet owned by accounts[4] that bought template 2. */
  contractWallet: Address;
  muster: MusterClient;
}
const t = suite<Ctx>("agents: licensed packs need a holder's signature, on a local chain");

const walletOf = (ctx: Ctx, account: Address) => createWalletClient({ account, chain: hardhat, transport: http(ctx.node.url) });

t.before(async (ctx) => {
  await setUp(ctx).catch(async (error: unknown) => {
    console.error("packs-licence set-up failed:", error);
    // uvu runs no after hook for a failed before: stop what started, or the chain keeps the process alive.
    await ctx.rig?.close();
    await ctx.node?.stop();
    throw error;
  });
});

async function setUp(ctx: Ctx): Promise<void> {
  await buildContracts();
  ctx.node = await startHardhatNode();
  ctx.tmp = mkdtempSync(join(tmpdir(), "muster-agents-chain-"));
  const deploymentsFile = join(ctx.tmp, "deployments.json");
  ctx.accounts = await createWalletClient({ chain: hardhat, transport: http(ctx.node.url) }).getAddresses();
  const connection = await network.connect({ network: "localhost", override: { url: ctx.node.url } });
  try {
    await deployMusterMarketplace(connection, { deploymentId, freshJournal: true, deploymentsFile });
    const [, , , , walletOwner] = await connection.viem.getWalletClients();
    ctx.contractWallet = (await connection.viem.deployContract("ERC1271WalletMock", [ctx.accounts[4]!], { client: { wallet: walletOwner! } })).address;
  } finally {
    await connection.close();
    rmSync(ignitionJournal, { recursive: true, force: true });
  }
  const publicClient = createPublicClient({ chain: hardhat, transport: http(ctx.node.url) });
  const deployment = getMarketplaceDeployment(await loadMarketplaceDeployments(deploymentsFile), await publicClient.getChainId());
  ctx.addresses = { templateRegistry: deployment.templateRegistry, licenseToken: deployment.licenseToken, marketplace: deployment.marketplace };
  const market = (account: Address) => walletOf(ctx, account).extend(marketplaceActions(ctx.addresses));
  await market(ctx.accounts[1]!).registerTemplate({ metadataURI: "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/t.json", price: parseEther("0.01"), royaltyBps: 500 });
  await market(ctx.accounts[1]!).registerTemplate({ metadataURI: "ipfs://wallet", price: parseEther("0.02"), royaltyBps: 0 });
  await market(ctx.accounts[2]!).purchase({ templateId: 1n, value: parseEther("0.01") });
  // The contract wallet buys template 2 through the spec's purchase(templateId), its owner driving it.
  const buy = encodeFunctionData({ abi: marketplaceAbi, functionName: "purchase", args: [2n] });
  const hash = await walletOf(ctx, ctx.accounts[4]!).writeContract({
    address: ctx.contractWallet,
    abi: [{ type: "function", name: "execute", stateMutability: "payable", inputs: [{ name: "target", type: "address" }, { name: "data", type: "bytes" }], outputs: [{ type: "bytes" }] }],
    functionName: "execute",
    args: [ctx.addresses.marketplace, buy],
    value: parseEther("0.02"),
  });
  assert.is((await publicClient.waitForTransactionReceipt({ hash })).status, "success");
  ctx.holder = ctx.accounts[2]!;
  ctx.other = ctx.accounts[3]!;
  ctx.rig = await startAgentsRig({
    files: { "company/org_structure.yaml": ORG, ...Object.fromEntries(Object.entries(PACKS).map(([name, id]) => [`packs/${name}.json`, pack(name, id)])) },
    agentsConfig: { marketplace: { rpcUrl: ctx.node.url, addresses: ctx.addresses, timeoutMs: 5_000 } },
  });
  ctx.muster = createMusterClient({ url: ctx.rig.h.url });
}

t.after(async (ctx) => {
  await ctx.rig?.close();
  await ctx.node?.stop();
  if (ctx.tmp) rmSync(ctx.tmp, { recursive: true, force: true });
});

async function challenge(ctx: Ctx, name: string, holder: Address): Promise<PackLicenceChallenge> {
  const res = await ctx.rig.h.json("/api/packs/licence-challenge", { method: "POST", body: { name, holder } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  // The OpenAPI types the hex fields as strings (their 0x patterns do not reach the generated types); viem's Hex is their narrowing.
  return res.body.challenge as PackLicenceChallenge;
}
const install = (ctx: Ctx, body: Record<string, unknown>) => ctx.rig.h.json<ApiBody<"postPacks">>("/api/packs", { method: "POST", body });
async function refusedWith(ctx: Ctx, body: Record<string, unknown>, status: number, code: string, agent?: string) {
  const res = await install(ctx, body);
  assert.is(res.status, status, JSON.stringify(res.body));
  assert.is(res.body.error?.code, code, JSON.stringify(res.body));
  if (agent) assert.is((await ctx.rig.h.json<ApiBody<"getAgentsById">>(`/api/agents/${agent}`)).status, 404, "nothing installed");
  return res;
}

t("a bare buyer address no longer installs: 403 LICENSE_PROOF_REQUIRED, nothing written", async (ctx) => {
  await refusedWith(ctx, { name: "first", buyer: ctx.holder }, 403, "LICENSE_PROOF_REQUIRED", "first-a");
  await refusedWith(ctx, { name: "first" }, 403, "LICENSE_PROOF_REQUIRED", "first-a");
});

t("the challenge is EIP-712 typed data bound to this Muster, the licence token, the pack, the template and the holder", async (ctx) => {
  const a = await challenge(ctx, "first", ctx.holder);
  const b = await challenge(ctx, "first", ctx.holder);
  assert.is(a.typedData.domain.salt, b.typedData.domain.salt, "one stable instance id");
  assert.match(a.typedData.domain.salt, /^0x[0-9a-f]{64}$/);
  assert.is(a.typedData.domain.verifyingContract.toLowerCase(), ctx.addresses.licenseToken.toLowerCase());
  assert.is.not(a.nonce, b.nonce, "a fresh nonce each time");
  assert.equal(a.typedData.message, { pack: "first", templateId: "1", holder: ctx.holder, nonce: a.nonce, expiresAt: String(a.expiresAt) });
  assert.ok(a.expiresAt > Date.now() / 1000 && a.expiresAt <= Date.now() / 1000 + 301);
  const free = await ctx.rig.h.json("/api/packs/licence-challenge", { method: "POST", body: { name: "nope", holder: ctx.holder } });
  assert.is(free.status, 404);
  assert.is(free.body.error?.code, "PACK_NOT_FOUND");
});

t("the holder's signature installs (through the SDK's installLicensedPack); replaying it is refused", async (ctx) => {
  const c = await challenge(ctx, "first", ctx.holder);
  const proof = await signPackLicence(walletOf(ctx, ctx.holder), { challenge: c });
  const ok = await install(ctx, { name: "first", buyer: ctx.holder, proof });
  assert.is(ok.status, 201, JSON.stringify(ok.body));
  assert.equal(ok.body.orgEntries, ["first-a"]);
  // The same signed proof for the same licence, another licensed pack: the nonce is spent.
  await refusedWith(ctx, { name: "second", buyer: ctx.holder, proof }, 403, "LICENSE_PROOF_REPLAYED", "second-a");

  const viaSdk = await installLicensedPack(ctx.muster, { name: "second", wallet: walletOf(ctx, ctx.holder) });
  assert.equal(viaSdk.orgEntries, ["second-a"]);
});

t("a proof signed for another pack, by another key, or expired is refused; so is a signer without a licence", async (ctx) => {
  // Signed for pack "wallet"'s challenge, sent to install "third".
  const forOther = await challenge(ctx, "late", ctx.holder);
  await refusedWith(ctx, { name: "third", buyer: ctx.holder, proof: await signPackLicence(walletOf(ctx, ctx.holder), { challenge: forOther }) }, 403, "LICENSE_PROOF_INVALID", "third-a");
  // The challenge is for "third" but the holder's wallet signed typed data naming "late".
  const c = await challenge(ctx, "third", ctx.holder);
  const tampered = await walletOf(ctx, ctx.holder).signTypedData({
    domain: c.typedData.domain,
    types: packLicenceProofTypes,
    primaryType: "PackLicenceProof",
    message: { pack: "late", templateId: 1n, holder: ctx.holder, nonce: c.nonce, expiresAt: BigInt(c.expiresAt) },
  });
  await refusedWith(ctx, { name: "third", buyer: ctx.holder, proof: { nonce: c.nonce, expiresAt: c.expiresAt, signature: tampered } }, 403, "LICENSE_PROOF_INVALID", "third-a");
  // Another key signs the holder's challenge.
  const stolen = await challenge(ctx, "third", ctx.holder);
  const forged = await signPackLicence(walletOf(ctx, ctx.other), { challenge: stolen, holder: ctx.holder });
  await refusedWith(ctx, { name: "third", buyer: ctx.holder, proof: forged }, 403, "LICENSE_PROOF_INVALID", "third-a");
  // Expired: the holder signed an expiry already past (at most the challenge's).
  const e = await challenge(ctx, "third", ctx.holder);
  const past = Math.floor(Date.now() / 1000) - 1;
  const expiredSignature = await walletOf(ctx, ctx.holder).signTypedData({
    domain: e.typedData.domain,
    types: packLicenceProofTypes,
    primaryType: "PackLicenceProof",
    message: { pack: "third", templateId: 1n, holder: ctx.holder, nonce: e.nonce, expiresAt: BigInt(past) },
  });
  await refusedWith(ctx, { name: "third", buyer: ctx.holder, proof: { nonce: e.nonce, expiresAt: past, signature: expiredSignature } }, 403, "LICENSE_PROOF_EXPIRED", "third-a");
  // A valid signature by an address that holds no licence.
  const own = await challenge(ctx, "late", ctx.other);
  const nonHolder = await signPackLicence(walletOf(ctx, ctx.other), { challenge: own });
  await refusedWith(ctx, { name: "late", buyer: ctx.other, proof: nonHolder }, 403, "LICENSE_REQUIRED", "late-a");
  // It buys a licence now; its old proof stays spent.
  await walletOf(ctx, ctx.other).extend(marketplaceActions(ctx.addresses)).purchase({ templateId: 1n });
  await refusedWith(ctx, { name: "late", buyer: ctx.other, proof: nonHolder }, 403, "LICENSE_PROOF_REPLAYED", "late-a");
  const late = await installLicensedPack(ctx.muster, { name: "late", wallet: walletOf(ctx, ctx.other) });
  assert.equal(late.orgEntries, ["late-a"]);
});

t("a contract wallet holding the licence proves it through ERC-1271: its owner's key is accepted, another key is not", async (ctx) => {
  const c = await challenge(ctx, "wallet", ctx.contractWallet);
  const wrongKey = await signPackLicence(walletOf(ctx, ctx.accounts[5]!), { challenge: c, holder: ctx.contractWallet });
  await refusedWith(ctx, { name: "wallet", buyer: ctx.contractWallet, proof: wrongKey }, 403, "LICENSE_PROOF_INVALID", "wallet-a");
  const installed = await installLicensedPack(ctx.muster, { name: "wallet", wallet: walletOf(ctx, ctx.accounts[4]!), holder: ctx.contractWallet });
  assert.equal(installed.orgEntries, ["wallet-a"]);
  // The wallet's owner key alone, claiming its own address, holds no licence for template 2.
  const error = await installLicensedPack(ctx.muster, { name: "wallet-b", wallet: walletOf(ctx, ctx.accounts[4]!) }).catch((e: unknown) => e);
  assert.ok(isMusterApiError(error) && error.code === "LICENSE_REQUIRED", String(error));
});

t("muster packs install signs with MUSTER_WALLET_KEY: without it, or with a non-holder's key, refused with the server's code; the holder's key installs", async (ctx) => {
  // Hardhat's public development keys (its test mnemonic): #2 bought template 1, #5 holds nothing.
  const devKey = (addressIndex: number) => toHex(mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex }).getHdKey().privateKey!);
  const run = async (env: Record<string, string>, args = ["install", "cli"]) => {
    let out = "";
    let err = "";
    const sink = (write: (s: string) => void) => ({ write: (chunk: string) => (write(String(chunk)), true) }) as unknown as NodeJS.WritableStream;
    const code = await runPacksCommand(args, { home: ctx.tmp, env: { MUSTER_URL: ctx.rig.h.url, ...env }, stdout: sink((s) => (out += s)), stderr: sink((s) => (err += s)) });
    return { code, out, err };
  };
  const noKey = await run({});
  assert.is(noKey.code, 1);
  assert.match(noKey.err, /set MUSTER_WALLET_KEY/);
  const stranger = await run({ MUSTER_WALLET_KEY: devKey(5) });
  assert.is(stranger.code, 1);
  assert.match(stranger.err, /LICENSE_REQUIRED/);
  assert.is((await run({}, ["install"])).code, 2, "usage");
  const ok = await run({ MUSTER_WALLET_KEY: devKey(2) });
  assert.is(ok.code, 0, ok.err);
  assert.match(ok.out, /Installed cli 1\.0\.0: cli-a/);
});

t("the chain down: 503 LICENSE_CHECK_UNAVAILABLE, nothing written", async (ctx) => {
  const c = await challenge(ctx, "third", ctx.holder);
  const proof = await signPackLicence(walletOf(ctx, ctx.holder), { challenge: c });
  await ctx.node.stop();
  // The signature is checked locally; holdsValidLicense needs the chain.
  await refusedWith(ctx, { name: "third", buyer: ctx.holder, proof }, 503, "LICENSE_CHECK_UNAVAILABLE", "third-a");
});

t.run();
