// Issue 12 "a server killed while a cron run is in flight": the server is a child process, a
// scheduled run and one started by hand are held open by the fake gateway, the child is
// SIGKILLed (no shutdown hook runs), and a new child on the same MUSTER_HOME must record both
// runs `interrupted` with their reason, never send them again, and fire the job's next time
// as usual.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeGateway } from "../../helpers/fake-gateway.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { startMusterChild, type MusterChild } from "../../helpers/muster-child.ts";
import type { ApiBody } from "@muster/plugin/testing";

const test = suite("crons: server killed mid-run");
const TOKEN = "fake-token-crons-killed-0123456789";
const MARK = "killed-run-marker";
const MANUAL = "killed-manual-run";
const MINUTE = 60_000;

/** The crons.clockOffsetMs that makes the crons clock read `at` (a whole minute) `leadMs` from now. */
const offsetFor = (at: number, leadMs: number) => at - (Date.now() + leadMs);
const jobOf = (list: { body: ApiBody<"getCrons"> }, id: string) => list.body.jobs.find((j) => j.id === id);

test("SIGKILL during a scheduled and a manual run: interrupted with a reason after restart, never re-sent, next fire runs normally", async () => {
  const gw = await FakeGateway.start({ token: TOKEN, agents: [{ id: "main" }], tickIntervalMs: 5_000 });
  const homes: string[] = [];
  const children: MusterChild[] = [];
  let calls = 0;
  // The first run is held open until the fake stops; later runs answer at once.
  gw.onChat(async (_agent, message, _key, ctx) => {
    if ((message === MARK && ++calls === 1) || message === MANUAL) await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
    return "report written";
  });
  const agentCalls = (message = MARK) => gw.requests("agent").filter((f) => f.params?.message === message).map((f) => f.params);
  try {
    // 1. A child whose crons clock fires `* * * * *` a few seconds after the job exists. The
    //    lead covers the start-up; if the start was slower than that, a fresh home retries
    //    with a longer lead instead of waiting a whole minute.
    let child!: MusterChild;
    let home!: string;
    let job: ApiBody<"postCrons">["job"] | undefined;
    let offset = 0;
    let lead = 8_000;
    for (let attempt = 0; attempt < 3 && !job; attempt++) {
      home = mkdtempSync(join(tmpdir(), "muster-crons-killed-"));
      homes.push(home);
      mkdirSync(join(home, "workspace"));
      offset = offsetFor(Math.ceil(Date.now() / MINUTE) * MINUTE, lead);
      child = await startMusterChild({ home, workspace: join(home, "workspace"), gatewayUrl: gw.url, gatewayToken: TOKEN, pluginConfig: { crons: { clockOffsetMs: offset } } });
      children.push(child);
      const created = await child.json<ApiBody<"postCrons">>("/api/crons", { method: "POST", body: { name: "Killed", agentId: "main", cron: "* * * * *", message: MARK } });
      assert.is(created.status, 201, JSON.stringify(created.body));
      const ahead = Date.parse(created.body.job.nextRun ?? "") - (Date.now() + offset);
      if (ahead <= 20_000) job = created.body.job;
      else {
        await child.kill();
        lead = child.startMs * 2 + 2_000;
      }
    }
    assert.ok(job, "a job due within 20 s");
    const fireAt = job.nextRun;
    assert.ok(fireAt, "the job has a next fire time");

    // 2. The scheduled run reaches the gateway and is held there; the record says running.
    await waitUntil(() => agentCalls().length === 1, { timeoutMs: 30_000, intervalMs: 50, label: "the scheduled run reached the gateway" });
    const [running] = (await child.json<ApiBody<"getCronsRuns">>(`/api/crons/runs?id=${job.id}`)).body.runs;
    assert.ok(running, "a run is listed");
    assert.equal({ status: running.status, trigger: running.trigger, fireAt: running.fireAt }, { status: "running", trigger: "schedule", fireAt });
    assert.is(agentCalls()[0].idempotencyKey, `cron-${running.id}`);
    const secondFire = new Date(Date.parse(fireAt) + MINUTE).toISOString();
    // The next fire time is stored before the run ends (the kill must not lose it).
    await waitUntil(async () => jobOf(await child.json<ApiBody<"getCrons">>("/api/crons"), job.id)?.nextRun === secondFire, { timeoutMs: 5_000, label: "next fire time stored" });
    // A run started by hand (PATCH action: run) is in flight too.
    const manual = (await child.json<ApiBody<"postCrons">>("/api/crons", { method: "POST", body: { name: "By hand", agentId: "main", cron: "0 9 * * *", message: MANUAL } })).body.job;
    const manualRun = await child.json<Extract<ApiBody<"patchCrons">, { run: unknown }>>("/api/crons", { method: "PATCH", body: { id: manual.id, action: "run" } });
    assert.is(manualRun.status, 202, JSON.stringify(manualRun.body));
    await waitUntil(() => agentCalls(MANUAL).length === 1, { timeoutMs: 5_000, label: "the manual run reached the gateway" });

    // 3. SIGKILL: no shutdown hook, the gateway call still open.
    await child.kill();

    // 4. A new child on the same home, its crons clock a few seconds before the second fire.
    const restarted = await startMusterChild({
      home,
      workspace: join(home, "workspace"),
      gatewayUrl: gw.url,
      gatewayToken: TOKEN,
      pluginConfig: { crons: { clockOffsetMs: offsetFor(Date.parse(secondFire), Math.max(5_000, child.startMs * 2)) } },
    });
    children.push(restarted);
    const runs = async () => (await restarted.json<ApiBody<"getCronsRuns">>(`/api/crons/runs?id=${job.id}`)).body.runs;
    const first = (await runs()).find((r) => r.id === running.id);
    assert.ok(first, "the killed run is listed");
    assert.is(first.status, "interrupted");
    assert.match(String(first.error), /^INTERRUPTED: .*not re-run/);
    assert.ok(first.finishedAt, "an interrupted run has finished");
    const manualAfter = (await restarted.json<ApiBody<"getCronsRuns">>(`/api/crons/runs?id=${manual.id}`)).body.runs;
    assert.equal(manualAfter.map((r) => [r.id, r.trigger, r.status]), [[manualRun.body.run.id, "manual", "interrupted"]]);
    assert.match(String(manualAfter[0]?.error), /^INTERRUPTED/);
    const afterRestart = jobOf(await restarted.json<ApiBody<"getCrons">>("/api/crons"), job.id);
    assert.ok(afterRestart, "the job survives the restart");
    // On a loaded machine the start can outlast its lead: the second fire is then already
    // claimed (run once at start-up as a missed fire time) and has moved these on.
    if (!(await runs()).some((r) => r.fireAt === secondFire)) {
      assert.is(afterRestart.lastStatus, "error");
      assert.match(String(afterRestart.lastError), /^INTERRUPTED/);
      assert.is(afterRestart.nextRun, secondFire, "the schedule is rebuilt from the stored next fire time");
    }

    // 5. The next fire time runs normally, and the interrupted one never ran again.
    const second = await waitUntil(async () => (await runs()).find((r) => r.fireAt === secondFire && r.status === "ok"), { timeoutMs: 30_000, intervalMs: 50, label: "the next fire ran" });
    assert.is(second.output, "report written");
    const all = await runs();
    assert.is(all.filter((r) => r.fireAt === fireAt).length, 1, "one run for the killed fire time");
    assert.equal(
      agentCalls().map((p) => p.idempotencyKey),
      [`cron-${running.id}`, `cron-${second.id}`],
      "the gateway got each fire time once: the interrupted run was not sent again",
    );
    const job2 = await waitUntil(async () => {
      const j = jobOf(await restarted.json<ApiBody<"getCrons">>("/api/crons"), job.id);
      return j?.lastStatus === "ok" ? j : null;
    }, { label: "job result ok" });
    assert.is(job2.nextRun, new Date(Date.parse(secondFire) + MINUTE).toISOString());
    assert.is(agentCalls(MANUAL).length, 1, "the manual run was not sent again either");
  } finally {
    for (const c of children) await c.kill();
    await gw.stop();
    for (const h of homes) rmSync(h, { recursive: true, force: true });
  }
});

test.run();
