// Cron runs reach the live stream as `crons.run.started` / `crons.run.finished` (events.ts
// always said they were public; the Schedules console page follows them to show a run's result).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { openSse } from "../../helpers/sse-client.ts";
import { startRig, type Rig } from "../chat/chat-helpers.ts";
import { withField } from "@muster/plugin/testing";

const test = suite("crons on the live stream");
let rig: Rig;

test.before(async () => {
  rig = await startRig();
});
test.after(async () => {
  await rig.close();
});

test("run now: the run's start and finish arrive on the stream with the run record", async () => {
  const created = await rig.h.json("/api/crons", { method: "POST", body: { name: "Streamed", agentId: "main", cron: "0 9 * * *", message: "hello" } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const sse = await openSse(rig.h.url);
  try {
    const ran = await rig.h.json("/api/crons", { method: "PATCH", body: { id: created.body.job.id, action: "run" } });
    assert.is(ran.status, 202, JSON.stringify(ran.body));
    const runId = withField(ran.body, "run").run.id;
    const started = await sse.next((f) => f.data?.type === "event" && f.data.name === "crons.run.started" && f.data.payload.id === runId, 10_000, "crons.run.started");
    assert.is(started.data.payload.status, "running");
    const finished = await sse.next((f) => f.data?.type === "event" && f.data.name === "crons.run.finished" && f.data.payload.id === runId, 20_000, "crons.run.finished");
    assert.is(finished.data.payload.status, "ok");
    assert.is(finished.data.payload.jobId, created.body.job.id);
  } finally {
    sse.close();
  }
});

test.run();
