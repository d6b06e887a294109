import { createRequire } from "node:module";
import hardhatToolboxViem from "@nomicfoundation/hardhat-toolbox-viem";
import { configVariable, defineConfig } from "hardhat/config";

// The compiler is the npm `solc` package (exact version pinned in package.json), so compiling
// never downloads anything (DESIGN §1).
const require = createRequire(import.meta.url);
const SOLC_VERSION = "0.8.28";
const solcPath = require.resolve("solc/soljson.js");

export default defineConfig({
  plugins: [hardhatToolboxViem],
  solidity: {
    version: SOLC_VERSION,
    path: solcPath,
    settings: {
      evmVersion: "cancun",
      // The IR pipeline: smaller code and ~1,500 gas less per registration than the legacy one (a purchase
      // costs ~700 more); see docs/benchmarks.md.
      viaIR: true,
      optimizer: { enabled: true, runs: 10_000 },
    },
  },
  paths: {
    sources: "contracts",
    // TypeScript tests are uvu suites under test/ run by `npm test`, not by Hardhat's node:test runner.
    tests: { solidity: "contracts/test", nodejs: "contracts/test" },
    ignition: "contracts/ignition",
  },
  test: {
    solidity: {
      fuzz: { runs: 256 },
      invariant: { runs: 128, depth: 48, failOnRevert: true },
    },
  },
  networks: {
    localhost: {
      type: "http",
      chainType: "l1",
      url: "http://127.0.0.1:8545",
    },
    // A local OP-stack node: `npx hardhat node --chain-type op` (its receipts carry the L1 data fee).
    localOp: {
      type: "http",
      chainType: "op",
      url: "http://127.0.0.1:8545",
    },
    // The offline dry run of the Base Sepolia deployment: Hardhat's OP-stack simulation with Base Sepolia's chain
    // id, in process, so the Ignition module runs end to end without a network call (docs/marketplace.md).
    baseSepoliaDryRun: {
      type: "edr-simulated",
      chainType: "op",
      chainId: 84532,
    },
    baseSepolia: {
      type: "http",
      chainType: "op",
      chainId: 84532,
      url: configVariable("BASE_SEPOLIA_RPC_URL"),
      accounts: [configVariable("BASE_SEPOLIA_PRIVATE_KEY")],
    },
  },
  // Source verification on Basescan through Etherscan's multichain API; the key is read only when verifying.
  verify: {
    etherscan: { apiKey: configVariable("ETHERSCAN_API_KEY") },
  },
});
