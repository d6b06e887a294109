// Deploys the marketplace contracts with Hardhat Ignition and records the addresses in
// contracts/deployments.json under the chain id.
//   npm run deploy:local                          -> the `localhost` network (a running `npx hardhat node`)
//   npm run deploy:local -- --network baseSepolia -> Base Sepolia (RPC URL and key from configuration variables)
import { network } from "hardhat";
import { deployMusterMarketplace } from "../contracts/ignition/deploy.ts";

const flag = process.argv.indexOf("--network");
const networkName = flag >= 0 ? process.argv[flag + 1] : "localhost";
if (!networkName) throw new Error("--network needs a name");

const connection = await network.connect({ network: networkName });
const record = await deployMusterMarketplace(connection, { freshJournal: networkName === "localhost" });
console.log(JSON.stringify(record, null, 2));
await connection.close();
