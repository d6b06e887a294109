// @muster/sdk as a user outside this repository gets it: `npm pack` (which builds dist/ through `prepack`), the
// tarball installed into a separate temporary project with viem (`--prefer-offline`: npm's cache holds viem's
// tarball after `npm ci`, but not its registry metadata, which `viem@<version>` needs on a fresh machine), then imported
// by plain Node (no type stripping, no loader) to read a template from a real `hardhat node`, and its .d.ts
// type-checked by tsc in that project.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { test } from "uvu";
import { network } from "hardhat";
import { createWalletClient, http, parseEther, type Address } from "viem";
import { hardhat } from "viem/chains";
import { deployMusterMarketplace } from "../../contracts/ignition/deploy.ts";
import { marketplaceActions, type MarketplaceAddresses } from "../../sdk/src/index.ts";
import { ROOT, buildContracts } from "../contracts/support/build-lock.ts";
// npm and the scripts it runs (prepack's tsc) use this Node, not whatever `node` is first on PATH.
import { NODE_ENV as env } from "../helpers/plugin-package.ts";
import { startHardhatNode, type HardhatNode } from "./support/hardhat-node.ts";
import { scaled } from "../helpers/time-scale.ts";

// A watchdog for a hung npm or tsc; scaled, as packing, installing and compiling slow down with the machine's load.
setTimeout(() => { console.error("packed-sdk.test.ts timed out"); process.exit(1); }, scaled(180_000)).unref();

const run = promisify(execFile);
const URI = "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/template.json";
const PRICE = parseEther("0.01");
const tmp = mkdtempSync(join(tmpdir(), "muster-packed-sdk-"));
const consumer = join(tmp, "consumer");
const deploymentId = `packed-sdk-test-${process.pid}`;
const ignitionJournal = join(ROOT, "contracts/ignition/deployments", deploymentId);
const viemVersion = (JSON.parse(readFileSync(join(ROOT, "node_modules/viem/package.json"), "utf8")) as { version: string }).version;

let node: HardhatNode;
let addresses: MarketplaceAddresses;
let tarball: string;

async function packAndInstall() {
  await run("npm", ["pack", "--pack-destination", tmp], { cwd: join(ROOT, "sdk"), env });
  const name = readdirSync(tmp).find((f) => f.endsWith(".tgz"));
  assert.ok(name, "npm pack wrote a tarball");
  tarball = join(tmp, name);
  mkdirSync(consumer);
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball, `viem@${viemVersion}`], { cwd: consumer, env });
}

async function deployWithATemplate() {
  await buildContracts();
  node = await startHardhatNode();
  const connection = await network.connect({ network: "localhost", override: { url: node.url } });
  try {
    const record = await deployMusterMarketplace(connection, { deploymentId, freshJournal: true, deploymentsFile: false });
    addresses = { templateRegistry: record.templateRegistry, licenseToken: record.licenseToken, marketplace: record.marketplace };
  } finally {
    await connection.close();
    rmSync(ignitionJournal, { recursive: true, force: true });
  }
  const [, creator] = await createWalletClient({ chain: hardhat, transport: http(node.url) }).getAddresses();
  const client = createWalletClient({ account: creator as Address, chain: hardhat, transport: http(node.url) }).extend(marketplaceActions(addresses));
  await client.registerTemplate({ metadataURI: URI, price: PRICE, royaltyBps: 500 });
}

test.before(async () => {
  await Promise.all([packAndInstall(), deployWithATemplate()]);
});

test.after(async () => {
  await node?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

test("the tarball ships JavaScript and .d.ts built by prepack, and no TypeScript sources", async () => {
  const { stdout } = await run("tar", ["tzf", tarball]);
  const files = stdout.split("\n").filter(Boolean);
  for (const f of ["package/package.json", "package/dist/index.js", "package/dist/index.d.ts", "package/dist/marketplace/actions/purchase.js"]) {
    assert.ok(files.includes(f), `${f} is in the tarball`);
  }
  const sources = files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
  assert.deepEqual(sources, [], "no .ts sources (Node will not strip types inside node_modules)");
  const manifest = JSON.parse(readFileSync(join(consumer, "node_modules/@muster/sdk/package.json"), "utf8")) as { exports: Record<string, Record<string, string>> };
  assert.equal(manifest.exports["."]?.default, "./dist/index.js");
  assert.equal(manifest.exports["."]?.types, "./dist/index.d.ts");
});

test("plain Node imports the installed package and reads a template from a hardhat node", async () => {
  writeFileSync(
    join(consumer, "read-template.mjs"),
    `import { createPublicClient, http } from "viem";
import { marketplaceActions, MarketplaceContractError } from "@muster/sdk";
const [url, addresses] = [process.argv[2], JSON.parse(process.argv[3])];
const client = createPublicClient({ transport: http(url) }).extend(marketplaceActions(addresses));
const template = await client.getTemplate({ templateId: 1n });
const missing = await client.getTemplate({ templateId: 2n }).catch((e) => e);
console.log(JSON.stringify({
  metadataURI: template.metadataURI,
  price: String(template.price),
  royaltyBps: template.royaltyBps,
  missing: missing instanceof MarketplaceContractError ? missing.errorName : String(missing),
}));
`,
  );
  // process.execPath with no flags: no tsx, no --experimental-strip-types; only what the package ships runs.
  const { stdout } = await run(process.execPath, ["read-template.mjs", node.url, JSON.stringify(addresses)], { cwd: consumer, env });
  assert.deepEqual(JSON.parse(stdout), { metadataURI: URI, price: String(PRICE), royaltyBps: 500, missing: "TemplateNotFound" });
});

test("the shipped .d.ts type-check a consumer: return types are inferred from the ABIs", async () => {
  writeFileSync(
    join(consumer, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2022", "DOM"], types: [], strict: true, noEmit: true, skipLibCheck: true }, include: ["typed.ts"] }),
  );
  writeFileSync(
    join(consumer, "typed.ts"),
    `import { createPublicClient, http } from "viem";
import { marketplaceActions, type GetTemplateReturnType, type PurchaseParameters } from "@muster/sdk";
const client = createPublicClient({ transport: http("http://127.0.0.1:8545") }).extend(
  marketplaceActions({ templateRegistry: "0x${"1".repeat(40)}", licenseToken: "0x${"2".repeat(40)}", marketplace: "0x${"3".repeat(40)}" }),
);
export async function read(): Promise<string> {
  const template: GetTemplateReturnType = await client.getTemplate({ templateId: 1n });
  const price: bigint = template.price;
  // @ts-expect-error the price is a bigint, typed from the ABI
  const wrong: string = template.price;
  const params: Omit<PurchaseParameters, "addresses"> = { templateId: 1n, maxPrice: price };
  // @ts-expect-error an unknown action does not exist on the extended client
  await client.buyEverything(params);
  return template.metadataURI + String(wrong);
}
`,
  );
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  const result = await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: consumer, env }).then(
    () => "",
    (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ""}${e.stderr ?? ""}`,
  );
  assert.equal(result, "", `tsc in the consumer project:\n${result}`);
});

test.run();
