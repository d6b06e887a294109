// docs/marketplace.md's creator/buyer walkthrough (register, list, buy, prove, install), run as written: the
// script between its walkthrough markers runs against a real hardhat node with the contracts deployed by
// Ignition and a Muster server whose workspace holds the licensed pack.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { network } from "hardhat";
import { toHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { deployMusterMarketplace } from "../../contracts/ignition/deploy.ts";
import { buildContracts, ROOT } from "../contracts/support/build-lock.ts";
import { ORG, startAgentsRig, type AgentsRig } from "../plugins/agents/agents-rig.ts";
import { startHardhatNode, type HardhatNode } from "./support/hardhat-node.ts";
import type { ApiBody } from "@muster/plugin/testing";
import { scaled } from "../../core/plugin-api/testing/time-scale.ts";

setTimeout(() => { console.error("marketplace-walkthrough.test.ts timed out"); process.exit(1); }, scaled(300_000)).unref();

// Hardhat's public development keys #1 and #2 (from its public test mnemonic), funded on every hardhat node.
const devKey = (addressIndex: number) => toHex(mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex }).getHdKey().privateKey!);
const CREATOR_KEY = devKey(1);
const BUYER_KEY = devKey(2);
const PACK = JSON.stringify({ name: "research-squad", version: "1.0.0", description: "licensed", templateId: 1, agents: [{ id: "researcher", name: "Researcher", role: "research", model: "m", tier: 3 }] });

/** The walkthrough script as docs/marketplace.md shows it. */
function walkthroughScript(): string {
  const doc = readFileSync(join(ROOT, "docs/marketplace.md"), "utf8");
  const block = /<!-- walkthrough:start -->\s*```ts\n([\s\S]*?)```\s*<!-- walkthrough:end -->/.exec(doc);
  if (!block) throw new Error("docs/marketplace.md has no walkthrough block");
  return block[1]!;
}

const t = suite<{ node: HardhatNode; rig: AgentsRig; tmp: string; deployments: string; script: string }>("docs/marketplace.md walkthrough");

t.before(async (ctx) => {
  try {
    await buildContracts();
    ctx.node = await startHardhatNode();
    ctx.tmp = mkdtempSync(join(tmpdir(), "muster-walkthrough-"));
    ctx.deployments = join(ctx.tmp, "deployments.json");
    const deploymentId = `walkthrough-${process.pid}`;
    const connection = await network.connect({ network: "localhost", override: { url: ctx.node.url } });
    let addresses: Record<string, string>;
    try {
      const record = await deployMusterMarketplace(connection, { deploymentId, freshJournal: true, deploymentsFile: ctx.deployments });
      addresses = { templateRegistry: record.templateRegistry, licenseToken: record.licenseToken, marketplace: record.marketplace };
    } finally {
      await connection.close();
      rmSync(join(ROOT, "contracts/ignition/deployments", deploymentId), { recursive: true, force: true });
    }
    ctx.rig = await startAgentsRig({
      files: { "company/org_structure.yaml": ORG, "packs/research-squad.json": PACK },
      agentsConfig: { marketplace: { rpcUrl: ctx.node.url, addresses } },
    });
    // Inside the repository, so `@muster/sdk` and viem resolve as they do for a user of this checkout.
    mkdirSync(join(ROOT, "cache"), { recursive: true });
    ctx.script = join(ROOT, "cache", `walkthrough-${process.pid}.ts`);
    writeFileSync(ctx.script, walkthroughScript());
  } catch (error) {
    await ctx.rig?.close();
    await ctx.node?.stop();
    throw error;
  }
});

t.after(async (ctx) => {
  await ctx.rig?.close();
  await ctx.node?.stop();
  if (ctx.tmp) rmSync(ctx.tmp, { recursive: true, force: true });
  if (ctx.script) rmSync(ctx.script, { force: true });
});

t("register, list, see the cost, buy, prove and install, as the page shows it", async (ctx) => {
  const env = { ...process.env, RPC_URL: ctx.node.url, MUSTER_URL: ctx.rig.h.url, DEPLOYMENTS: ctx.deployments, CREATOR_KEY, BUYER_KEY };
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", ctx.script], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("close", (c) => resolve({ code: c, output: out }));
  });
  assert.is(code, 0, output);
  assert.match(output, /listed: 1; template 1 costs 0\.01 ETH/);
  assert.match(output, /cost: price 0\.01 \+ L2 at most/);
  assert.match(output, /bought licence token 1/);
  assert.match(output, /installed research-squad: researcher; approval [0-9a-f-]{36} registers them/);
  const agent = await ctx.rig.h.json<ApiBody<"getAgentsById">>("/api/agents/researcher");
  assert.is(agent.status, 200, "the pack's agent exists");
});

t.run();
