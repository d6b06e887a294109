// A cron job created through Muster runs through the real gateway: `PATCH action: run`
// sends the job's message with the `agent` method, the fake model behind OpenClaw receives
// the job's marker, and the run is recorded `ok` with the reply as output.
import { randomUUID } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitUntil } from "../helpers/wait.ts";
import { boundedTest, CHAT_TEST_MS } from "./support/bounded.ts";
import { withMuster } from "./support/muster.ts";
import { peer } from "./support/peer.ts";

const test = suite("crons");

boundedTest(test, "a cron job run now reaches the model with its marker and is recorded ok", CHAT_TEST_MS, async () => {
  const { model } = peer();
  const marker = `MARK-cron-${randomUUID().slice(0, 8)}`;
  await withMuster(async (h) => {
    const created = await h.json("/api/crons", { method: "POST", body: { name: "Peer cron", agentId: "main", cron: "0 9 * * *", message: `Please repeat ${marker}` } });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const id = created.body.job.id;
    const run = await h.json("/api/crons", { method: "PATCH", body: { id, action: "run" } });
    assert.is(run.status, 202, JSON.stringify(run.body));
    await model.waitForRequest((r) => r.lastUserText.includes(marker), CHAT_TEST_MS / 2, `the model request for ${marker}`);
    await waitUntil(async () => (await h.json(`/api/crons/runs?id=${id}`)).body.runs[0]?.status !== "running", { timeoutMs: CHAT_TEST_MS / 2, label: "run finished" });
    const [recorded] = (await h.json(`/api/crons/runs?id=${id}`)).body.runs;
    assert.is(recorded?.status, "ok", JSON.stringify(recorded));
    assert.match(recorded?.output ?? "", marker);
    const job = (await h.json("/api/crons")).body.jobs.find((j) => j.id === id);
    assert.is(job?.lastStatus, "ok");
  });
});

test.run();
