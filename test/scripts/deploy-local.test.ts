// `npm run deploy:local` leaves tracked files alone (issue 10 item 6): the addresses go to
// $MUSTER_HOME/deployments.json unless --record asks for contracts/deployments.json.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeHome } from "../helpers/start-test-host.ts";

const t = suite("deploy:local");
const root = new URL("../..", import.meta.url).pathname;
const tracked = join(root, "contracts", "deployments.json");

t("deploys (in-process network) and records the addresses in MUSTER_HOME, not in contracts/deployments.json", () => {
  const home = mkdtempSync(join(tmpdir(), "muster-deploy-"));
  const before = readFileSync(tracked, "utf8");
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/deploy-local.ts", "--network", "default"], {
    cwd: root,
    env: { ...process.env, MUSTER_HOME: home },
    encoding: "utf8",
    timeout: 120_000,
  });
  assert.is(run.status, 0, run.stderr);
  const recorded = JSON.parse(readFileSync(join(home, "deployments.json"), "utf8")) as Record<string, { chainId: number; marketplace: string }>;
  assert.is(recorded["31337"]?.chainId, 31337);
  assert.match(recorded["31337"]!.marketplace, /^0x[0-9a-fA-F]{40}$/);
  assert.equal(JSON.parse(run.stdout), recorded["31337"], "stdout is the record");
  assert.match(run.stderr, /addresses recorded in .*deployments\.json/);
  assert.is(readFileSync(tracked, "utf8"), before, "the tracked file is untouched");
  removeHome(home);
});

t.run();
