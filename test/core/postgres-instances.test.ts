// Team mode (issue 25): several instances on one PostgreSQL database tell work a dead
// process left in flight from work a live instance is doing (`hostTokens.instances`: a row
// per instance with a heartbeat). A cron run in flight on one instance is not interrupted
// by another instance's start; once its instance is gone, the other marks it interrupted
// within seconds (never re-run). Real hosts, a real cluster, the fake gateway holding the run.
import * as assert from "uvu/assert";
import type { ApiBody } from "@muster/plugin/testing";
import { cronsPlugin } from "../../plugins/crons/index.ts";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";
import { waitUntil } from "../helpers/wait.ts";
import { FAST, TOKEN, waitForGateway } from "../plugins/chat/chat-helpers.ts";

const { t, test, database } = postgresSuite("instances on one PostgreSQL database");
const HELD = "held-run-marker";

/** A fake gateway that holds a `HELD` run until it is aborted, and the crons hosts' options on a fresh database. */
async function heldGateway() {
  const url = await database();
  const gw = await FakeGateway.start({ token: TOKEN, agents: [{ id: "main" }], tickIntervalMs: 5_000 });
  gw.onChat(async (_agent, message, _key, ctx) => {
    if (message === HELD) await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
    return "done";
  });
  return { gw, options: { plugins: [cronsPlugin], env: { DATABASE_URL: url }, config: { gatewayUrl: gw.url, gatewayToken: TOKEN, gatewayTimings: FAST } } };
}

test("a run in flight on one instance survives another's start; when its instance is gone, the other marks it interrupted and never re-sends it", async () => {
  const { gw, options } = await heldGateway();
  const hosts: TestHost[] = [];
  try {
    const a = await startTestHost(options);
    hosts.push(a);
    await waitForGateway(a, "connected");
    const job = (await a.json<ApiBody<"postCrons">>("/api/crons", { method: "POST", body: { name: "Held", agentId: "main", cron: "0 9 * * *", message: HELD } })).body.job;
    assert.is((await a.json("/api/crons", { method: "PATCH", body: { id: job.id, action: "run" } })).status, 202);
    await waitUntil(() => gw.requests("agent").some((f) => f.params?.message === HELD), { label: "the run reached the gateway" });
    const runs = async (h: TestHost) => (await h.json<ApiBody<"getCronsRuns">>(`/api/crons/runs?id=${job.id}`)).body.runs;

    // A second instance starts while the run is in flight on the first: it leaves the run alone
    // (before, every start marked every running run interrupted).
    const b = await startTestHost(options);
    hosts.push(b);
    await waitForGateway(b, "connected");
    assert.equal((await runs(b)).map((r) => r.status), ["running"]);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // more than one sweep interval of B
    assert.equal((await runs(b)).map((r) => r.status), ["running"], "a live instance's run was interrupted");

    // The first instance goes (its row leaves the registry; a killed one would stop its
    // heartbeat instead): the second marks the run interrupted, and nothing sends it again.
    await a.stop();
    removeHome(a.home);
    hosts.shift();
    await waitUntil(async () => (await runs(b))[0]?.status === "interrupted", { timeoutMs: 15_000, label: "interrupted by the other instance" });
    const [run] = await runs(b);
    assert.match(run!.error ?? "", /INTERRUPTED/);
    assert.is(gw.requests("agent").filter((f) => f.params?.message === HELD).length, 1, "the run was sent again");
  } finally {
    for (const h of hosts) {
      await h.stop();
      removeHome(h.home);
    }
    await gw.stop();
  }
});

test("a job run by hand on one instance while its run goes on on the other is skipped (ALREADY_RUNNING), not run twice", async () => {
  const { gw, options } = await heldGateway();
  const hosts: TestHost[] = [];
  try {
    const a = await startTestHost(options);
    hosts.push(a);
    const b = await startTestHost(options);
    hosts.push(b);
    await waitForGateway(a, "connected");
    await waitForGateway(b, "connected");
    const job = (await a.json<ApiBody<"postCrons">>("/api/crons", { method: "POST", body: { name: "Held", agentId: "main", cron: "0 9 * * *", message: HELD } })).body.job;
    const run = (h: TestHost) => h.json<{ run?: { status: string; error: string | null } }>("/api/crons", { method: "PATCH", body: { id: job.id, action: "run" } });
    const first = await run(a);
    assert.equal([first.status, first.body.run?.status], [202, "running"]);
    const second = await run(b);
    assert.equal([second.status, second.body.run?.status, second.body.run?.error], [202, "skipped", "ALREADY_RUNNING"]);
    await waitUntil(() => gw.requests("agent").some((f) => f.params?.message === HELD), { label: "the first run reached the gateway" });
    assert.is(gw.requests("agent").filter((f) => f.params?.message === HELD).length, 1, "sent once");
  } finally {
    for (const h of hosts.reverse()) {
      await h.stop();
      removeHome(h.home);
    }
    await gw.stop();
  }
});

t.run();
