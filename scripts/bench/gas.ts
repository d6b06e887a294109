// Gas used by every marketplace operation, on Hardhat's in-process network with the project's compiler
// settings. Prints a table and writes it between the gas markers of docs/benchmarks.md.
//   npm run bench:gas
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, platform, release, totalmem } from "node:os";
import { network } from "hardhat";
import { parseEther, type Abi, type Address, type Hash } from "viem";
import { licenseTokenAbi } from "../../sdk/src/abi/license-token.ts";
import { marketplaceAbi } from "../../sdk/src/abi/marketplace.ts";
import { templateRegistryAbi } from "../../sdk/src/abi/template-registry.ts";
import { benchmarksFile, wroteTo } from "./output.ts";

const root = new URL("../..", import.meta.url).pathname;
const URI_80 = "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/template.json";
if (URI_80.length !== 80) throw new Error(`benchmark URI must be 80 characters, is ${URI_80.length}`);

const connection = await network.create();
const { viem } = connection;
const publicClient = await viem.getPublicClient();
const [owner, creator, buyer, buyer2, recipient] = await viem.getWalletClients();
if (!owner || !creator || !buyer || !buyer2 || !recipient) throw new Error("need five accounts");

type Wallet = Awaited<ReturnType<typeof viem.getWalletClients>>[number];
const rows: { operation: string; gas: bigint; target?: bigint; note: string }[] = [];
async function gasOf(hash: Hash): Promise<bigint> {
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
  return receipt.gasUsed;
}
async function deploy(name: string, args: unknown[]): Promise<Address> {
  const { contract, deploymentTransaction } = await viem.sendDeploymentTransaction(name, args);
  rows.push({ operation: `deploy ${name}`, gas: await gasOf(deploymentTransaction.hash), note: "" });
  return contract.address;
}
async function call(
  wallet: Wallet,
  address: Address,
  abi: Abi,
  functionName: string,
  args: unknown[],
  value = 0n,
): Promise<bigint> {
  const hash = await wallet.writeContract({ address, abi, functionName, args, value, chain: null, account: wallet.account });
  return gasOf(hash);
}

const registry = await deploy("TemplateRegistry", [owner.account.address]);
const license = await deploy("LicenseToken", [registry, owner.account.address]);
const market = await deploy("Marketplace", [registry, license, owner.account.address]);
await call(owner, registry, templateRegistryAbi, "setMarketplace", [market]);
await call(owner, license, licenseTokenAbi, "setMarketplace", [market]);

const price = parseEther("0.01");
const first = await call(creator, registry, templateRegistryAbi, "registerTemplate", [URI_80, price, 500]);
rows.push({ operation: "registerTemplate (creator's first, 80-char URI)", gas: first, target: 170_000n, note: "" });
const second = await call(creator, registry, templateRegistryAbi, "registerTemplate", [URI_80, price, 500]);
rows.push({ operation: "registerTemplate (steady state, 80-char URI)", gas: second, target: 170_000n, note: "" });
for (let i = 0; i < 6; i++) await call(creator, registry, templateRegistryAbi, "registerTemplate", [URI_80, price, 500]);
await call(creator, registry, templateRegistryAbi, "registerTemplate", [URI_80, 0n, 0]); // id 9: free

// The buyer's limit is the price it read: what the SDK sends.
const buy = (wallet: Wallet, id: bigint, value: bigint) => call(wallet, market, marketplaceAbi, "purchase", [id, value > price ? price : value], value);
const excess = parseEther("0.005");
rows.push({ operation: "purchase, paid: very first (fee slot and buyer account created)", gas: await buy(buyer, 1n, price), note: "" });
rows.push({ operation: "purchase, paid: steady state (buyer's 2nd license)", gas: await buy(buyer, 2n, price), target: 210_000n, note: "" });
rows.push({ operation: "purchase, paid with excess: steady state (buyer's 3rd license)", gas: await buy(buyer, 3n, price + excess), target: 210_000n, note: "" });
rows.push({ operation: "purchase, paid: a new buyer (account slot created)", gas: await buy(buyer2, 1n, price), target: 210_000n, note: "" });
await buy(buyer, 4n, price);
rows.push({ operation: "purchase, paid: buyer's 5th license (template list spills past the account slot)", gas: await buy(buyer, 5n, price), target: 210_000n, note: "" });
rows.push({ operation: "purchase, free, excess refunded (buyer's 2nd license)", gas: await buy(buyer2, 9n, excess), note: "" });

rows.push({
  operation: "license transfer (transferFrom to a new holder)",
  gas: await call(buyer, license, licenseTokenAbi, "transferFrom", [buyer.account.address, recipient.account.address, 1n]),
  target: 110_000n,
  note: "",
});
rows.push({
  operation: "license transfer (to a holder of other licenses)",
  gas: await call(buyer, license, licenseTokenAbi, "transferFrom", [buyer.account.address, buyer2.account.address, 2n]),
  target: 110_000n,
  note: "",
});
rows.push({ operation: "revokeLicense", gas: await call(owner, license, licenseTokenAbi, "revokeLicense", [3n]), note: "" });
rows.push({ operation: "withdrawFees(to)", gas: await call(owner, market, marketplaceAbi, "withdrawFees", [owner.account.address]), note: "" });
await viem.deployContract("EthForcer", [market], { value: 1n }); // forced ETH, so there is a surplus to sweep
rows.push({ operation: "sweepSurplus(to)", gas: await call(owner, market, marketplaceAbi, "sweepSurplus", [recipient.account.address]), note: "" });
await connection.close();

const fmt = (n: bigint) => n.toLocaleString("en-US");
const table = [
  "| operation | gas | target |",
  "|---|---:|---:|",
  ...rows.map((r) => `| ${r.operation}${r.note ? ` (${r.note})` : ""} | ${fmt(r.gas)} | ${r.target ? `< ${fmt(r.target)} ${r.gas < r.target ? "✔" : "✘"}` : ""} |`),
].join("\n");
console.log(table);

const machine = `${platform()} ${release()}, ${cpus()[0]?.model ?? "unknown CPU"} x${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const section = [
  "<!-- gas:start -->",
  "## Marketplace contracts: gas",
  "",
  `Command: \`npm run bench:gas\` (Hardhat 3 in-process network, solc 0.8.28, optimizer 10,000 runs, via IR, EVM cancun). Machine: ${machine}. Measured ${new Date().toISOString().slice(0, 10)}. Gas is deterministic; the machine does not change it.`,
  "",
  table,
  "",
  readFileSync(new URL("./gas-notes.md", import.meta.url), "utf8").trim(),
  "<!-- gas:end -->",
].join("\n");
const file = benchmarksFile();
const current = existsSync(file) ? readFileSync(file, "utf8") : "";
const pattern = /<!-- gas:start -->[\s\S]*?<!-- gas:end -->/;
const next = pattern.test(current)
  ? current.replace(pattern, section)
  : `${current}${current && !current.endsWith("\n") ? "\n" : ""}${current ? "\n" : ""}${section}\n`;
writeFileSync(file, next);
console.log(`\n${wroteTo(file, "the gas section")}`);
