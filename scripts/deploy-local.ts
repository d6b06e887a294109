// Deploys the marketplace contracts with Hardhat Ignition and records the addresses under
// the chain id in a deployments file.
//   npm run deploy:local                          -> the `localhost` network (a running `npx hardhat node --hostname 127.0.0.1`)
//   npm run deploy:local -- --network baseSepolia -> Base Sepolia (RPC URL and key from configuration variables)
// Where the addresses go: $MUSTER_HOME/deployments.json (default .muster/, git-ignored), so a
// run leaves tracked files alone. `--record` writes contracts/deployments.json instead (the
// committed addresses of a public network), `--out <file>` any other file.
import { mkdirSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { network } from "hardhat";
import { DEPLOYMENTS_FILE, deployMusterMarketplace } from "../contracts/ignition/deploy.ts";

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  if (at < 0) return undefined;
  const value = process.argv[at + 1];
  if (!value || value.startsWith("--")) throw new Error(`${name} needs a value`);
  return value;
}

const networkName = option("--network") ?? "localhost";
// The same default home as the server (core/internal/config.ts): MUSTER_HOME or ./.muster.
const file = process.argv.includes("--record") ? DEPLOYMENTS_FILE : resolve(option("--out") ?? resolve(process.env.MUSTER_HOME ?? ".muster", "deployments.json"));
mkdirSync(dirname(file), { recursive: true, mode: 0o700 });

const connection = await network.connect({ network: networkName });
// A `hardhat node` or the in-process network does not outlive its process: start from a clean journal.
const record = await deployMusterMarketplace(connection, { freshJournal: networkName === "localhost" || networkName === "default", deploymentsFile: file });
console.log(JSON.stringify(record, null, 2));
console.error(`addresses recorded in ${relative(process.cwd(), file) || file}${file === DEPLOYMENTS_FILE ? " (tracked: commit them)" : ""}`);
await connection.close();
