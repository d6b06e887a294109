// Runs last (it stops the shared gateway): `muster doctor` green against the real gateway,
// then the gateway stopped (doctor red naming the gateway link, /api/health `down`, every
// agent `offline`), then restarted on the same state dir: Muster must read `connected`
// again within 2 s of the gateway's /readyz turning 200 (issue 11: an assertion the issue
// asks for, not a benchmark; bench:gateway measures the same interval properly).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";
import { boundedTest } from "./support/bounded.ts";
import { gatewayHealth, muster, musterOptions, waitForGatewayState } from "./support/muster.ts";
import { peer } from "./support/peer.ts";

const test = suite("gateway stop and restart");
const RECONNECT_LIMIT_MS = 2_000;

/** `muster doctor --json` (DESIGN §14.1). */
interface DoctorReport {
  ok: boolean;
  checks: Array<{ id: string; name: string; status: "ok" | "fail" | "skipped" | "disabled"; detail: string; fix?: string }>;
}
let h: TestHost | undefined;

const host = () => {
  if (!h) throw new Error("the Muster host did not start");
  return h;
};

test.before(async () => {
  h = await startTestHost(musterOptions());
  await waitForGatewayState(h, "connected");
});

test.after(async () => {
  // Whatever failed above, later files and the runner's teardown expect a running gateway.
  if (!peer().gateway.running()) await peer().gateway.start();
  if (h) {
    await h.stop();
    removeHome(h.home);
  }
});

boundedTest(test, "muster doctor exits 0 against the running gateway, and --json says every check passed", 60_000, async () => {
  const plain = await muster(["doctor"]);
  assert.is(plain.code, 0, `${plain.stdout}\n${plain.stderr}`);
  const json = await muster(["doctor", "--json"]);
  assert.is(json.code, 0, `${json.stdout}\n${json.stderr}`);
  const report = JSON.parse(json.stdout) as DoctorReport;
  assert.is(report.ok, true, json.stdout);
  const gatewayChecks = report.checks.filter((c) => c.id.startsWith("gateway."));
  assert.ok(gatewayChecks.length > 0, "the gateway link is checked");
  for (const check of report.checks) assert.is(check.status, "ok", `check ${JSON.stringify(check)}`);
});

boundedTest(test, "gateway stopped: /api/health reads down, doctor exits 1 naming the gateway link, every agent reads offline", 90_000, async () => {
  await peer().gateway.stop();
  const down = await waitForGatewayState(host(), "down", 30_000);
  assert.is(down.state, "down");
  assert.type((await gatewayHealth(host())).lastError, "string");

  const json = await muster(["doctor", "--json"]);
  assert.is(json.code, 1, json.stdout);
  const report = JSON.parse(json.stdout) as DoctorReport;
  assert.is(report.ok, false);
  const failed = report.checks.find((c) => c.status === "fail");
  assert.ok(failed, "a failed check is listed");
  // The first broken link is the gateway's TCP reachability, with how to fix it.
  assert.is(failed!.id, "gateway.tcp", JSON.stringify(failed));
  assert.type(failed!.fix, "string");
  // Every other check still runs (issue 27): those before the gateway pass, the crew check
  // (it needs agents.list) is skipped rather than failed.
  assert.ok(report.checks.filter((c) => !c.id.startsWith("gateway.") && c.id !== "crew").every((c) => c.status === "ok"), "everything before the gateway passed");
  assert.is(report.checks.find((c) => c.id === "crew")?.status, "skipped", "the crew check waits for agents.list");
  const plain = await muster(["doctor"]);
  assert.is(plain.code, 1, `${plain.stdout}\n${plain.stderr}`);
  assert.match(plain.stdout, `Broken link: ${failed!.name}`);

  // Issue 12's route; until it exists this says so in the output instead of passing silently.
  const agents = await host().json("/api/agents/health");
  if (agents.status === 404) {
    console.log("\n  [not checked] GET /api/agents/health answers 404 (issue 12 not built): the agents-offline assertion did not run");
  } else {
    assert.is(agents.status, 200);
    assert.ok(agents.body.agents.length > 0, "agents listed");
    for (const agent of agents.body.agents) assert.is(agent.state, "offline", `agent ${agent.id}`);
  }
});

boundedTest(test, "gateway restarted on the same state: Muster is connected within 2 s of /readyz turning 200", 120_000, async () => {
  const { gateway } = peer();
  if (gateway.running()) await gateway.stop();
  await waitForGatewayState(host(), "down", 30_000);
  const { readyAt } = await gateway.start();
  const readyEpochMs = performance.timeOrigin + readyAt;
  // `since` is the time of the state change, so the poll interval does not count.
  const connected = await waitForGatewayState(host(), "connected", 60_000);
  const lagMs = Date.parse(connected.since) - readyEpochMs;
  console.log(`\n  Muster connected ${Math.round(lagMs)} ms after /readyz turned 200`);
  assert.ok(lagMs <= RECONNECT_LIMIT_MS, `connected ${Math.round(lagMs)} ms after ready (limit ${RECONNECT_LIMIT_MS} ms)`);
});

test.run();
