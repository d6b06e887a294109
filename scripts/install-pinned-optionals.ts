// Root `postinstall`: npm may run on an older system Node (20 here) than the Node 24 the
// project pins. npm then marks optional packages whose `engines` ask for a newer Node as
// "inert" and silently skips them, Hardhat's native EDR package among them, and every
// Hardhat run fails. This script runs under the pinned Node 24 (npm puts
// node_modules/.bin first on PATH for lifecycle scripts) and, when such a package is
// missing, asks npm once more to complete the tree, now judging engines against Node 24.
// It also says, last, that npm's `EBADENGINE Unsupported engine` warnings printed above are
// expected (npm judged engines against its own older Node), so the install does not read as
// a failure.
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

/** The Node npm itself runs on, from the user agent npm gives its scripts ("npm/11.19.1 node/v20.20.2 linux x64 …"). */
function npmNodeVersion(): string | undefined {
  return /\bnode\/v(\d+\.\d+\.\d+)/.exec(process.env.npm_config_user_agent ?? "")?.[1];
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

const npmNode = npmNodeVersion();
if (npmNode && Number(npmNode.split(".")[0]) < 24) {
  console.log(
    `muster: installed. npm itself ran on Node v${npmNode}, so it warned "EBADENGINE Unsupported engine" for the packages that need a newer Node: ` +
      `expected and harmless. Every npm run, npm test and npx command of this project runs on its pinned Node ${process.version} (node_modules/.bin/node).`,
  );
}
