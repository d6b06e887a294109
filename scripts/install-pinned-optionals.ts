// Root `postinstall`: npm may run on an older system Node (20 here) than the Node 24 the
// project pins. npm then marks optional packages whose `engines` ask for a newer Node as
// "inert" and silently skips them, Hardhat's native EDR package among them, and every
// Hardhat run fails. This script runs under the pinned Node 24 (npm puts
// node_modules/.bin first on PATH for lifecycle scripts) and, when such a package is
// missing, asks npm once more to complete the tree, now judging engines against Node 24.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

function missingNativeOptionals(): string[] {
  try {
    // The platform package EDR itself would pick for this machine.
    require("@nomicfoundation/edr");
    return [];
  } catch (error) {
    return [String((error as Error).message).split("\n")[0] ?? "unknown"];
  }
}

const missing = missingNativeOptionals();
const npmCli = process.env.npm_execpath;
if (missing.length > 0 && npmCli && !process.env.MUSTER_POSTINSTALL_DONE) {
  console.log(`muster: completing optional native packages under Node ${process.version}`);
  execFileSync(process.execPath, [npmCli, "install", "--no-save", "--ignore-scripts", "--no-audit", "--no-fund"], {
    stdio: "inherit",
    env: { ...process.env, MUSTER_POSTINSTALL_DONE: "1" },
  });
}
