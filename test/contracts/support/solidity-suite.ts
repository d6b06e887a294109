// The Solidity fuzz and invariant suite (`contracts/test/*.t.sol`), run by `npm test` through
// scripts/test-suites.ts: builds under the shared build lock, then runs `hardhat test solidity`.
import { buildContracts, runHardhat } from "./build-lock.ts";
// Straight from the kit's file: the Solidity suite runs without the `source` condition, so `@muster/plugin/testing` would resolve to an unbuilt dist/.
import { scaled } from "../../../core/plugin-api/testing/time-scale.ts";

await buildContracts(false);
const { code } = await runHardhat(["test", "solidity"], { echo: true, timeoutMs: scaled(7 * 60_000) });
process.exitCode = code;
