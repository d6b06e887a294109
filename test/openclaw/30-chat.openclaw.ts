// POST /api/chat through Muster to the real gateway and the fake model behind it: single and
// party replies carry the marker the model received; a streamed chat whose client leaves
// mid-stream goes on in the background until it is cancelled, which ends the gateway run as
// aborted and leaves Muster able to chat again.
import { randomUUID } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { connectBare } from "../../scripts/openclaw-peer/bare-client.ts";
import { postChatStream } from "../../scripts/openclaw-peer/chat-stream-client.ts";
import { waitUntil } from "../helpers/wait.ts";
import { boundedTest, CHAT_TEST_MS } from "./support/bounded.ts";
import { withMuster } from "./support/muster.ts";
import { peer } from "./support/peer.ts";
import { withField } from "@muster/plugin/testing";

const test = suite("chat");
const mark = (label: string) => `MARK-${label}-${randomUUID().slice(0, 8)}`;
/** OpenClaw adds a runtime line naming the agent to every user turn (`agent=main | …`). */
const forAgent = (agentId: string, marker: string) => (r: { lastUserText: string }) => r.lastUserText.includes(marker) && r.lastUserText.includes(`agent=${agentId} `);

boundedTest(test, "single: the reply holds the marker the model received; session and messages are stored", CHAT_TEST_MS, async () => {
  const { model } = peer();
  const marker = mark("single");
  await withMuster(async (h) => {
    const { status, body } = await h.json("/api/chat", { method: "POST", body: { message: `Please repeat ${marker}`, agentId: "main" } });
    assert.is(status, 200, JSON.stringify(body));
    assert.is(body.ok, true);
    assert.is(body.mode, "single");
    const { reply } = withField(body, "reply");
    assert.is(reply.agentId, "main");
    assert.match(reply.text, marker);
    assert.type(reply.runId, "string");
    await model.waitForRequest(forAgent("main", marker), 1_000, `the model request for ${marker}`);

    const stored = await h.json(`/api/chat/sessions/${body.sessionId}`);
    assert.is(stored.status, 200);
    const texts = stored.body.messages.map((m: { role: string; text: string }) => `${m.role}:${m.text.includes(marker)}`);
    assert.equal(texts, ["user:true", "agent:true"]);
  });
});

boundedTest(test, "party: main then helper each reply through the gateway, and each turn reached the model", 2 * CHAT_TEST_MS, async () => {
  const { model } = peer();
  const marker = mark("party");
  await withMuster(async (h) => {
    const { status, body } = await h.json("/api/chat", { method: "POST", body: { message: `Discuss ${marker}`, agentIds: ["main", "helper"], mode: "party" } });
    assert.is(status, 200, JSON.stringify(body));
    assert.is(body.mode, "party");
    const party = withField(body, "replies");
    assert.equal(
      party.replies.map((r) => `${r.agentId}/${r.round}`),
      ["main/1", "helper/1"],
    );
    for (const reply of party.replies) assert.match(reply.text, marker);
    assert.is(party.truncated, false);
    const main = await model.waitForRequest(forAgent("main", marker), 1_000, "main's turn");
    const helper = await model.waitForRequest(forAgent("helper", marker), 1_000, "helper's turn");
    assert.ok(main.n < helper.n, "agents speak in order");
  });
});

boundedTest(test, "the model refusing the request (HTTP 400): 502 CHAT_RUN_FAILED naming the agent", CHAT_TEST_MS, async () => {
  const { model } = peer();
  const marker = mark("refused");
  // A 400, not a closed port: the gateway retries a refused connection for about a minute (reference §3.6).
  const refuse = model.use((r) => (r.lastUserText.includes(marker) ? { status: 400 } : undefined));
  try {
    await withMuster(async (h) => {
      const { status, body } = await h.json("/api/chat", { method: "POST", body: { message: `Fail ${marker}`, agentId: "helper" } });
      assert.is(status, 502, JSON.stringify(body));
      assert.is(body.ok, false);
      assert.is(body.error!.code, "CHAT_RUN_FAILED");
      assert.match(body.error!.message, "helper");
      // The request did reach the model: the failure is the model's, carried back by the gateway.
      await model.waitForRequest((r) => r.lastUserText.includes(marker), 1_000, "the refused request");
    });
  } finally {
    refuse();
  }
});

boundedTest(test, "streamed chat left mid-stream by the client: the turn goes on; cancelled, the gateway run ends aborted, and the next chat succeeds", 2 * CHAT_TEST_MS, async () => {
  const { gateway, model } = peer();
  const marker = mark("abort");
  // Slow enough that the client can leave long before the model finishes (about 60 s).
  const slow = model.use((r) => (r.lastUserText.includes(marker) ? { text: `${marker} ${"slowly ".repeat(60)}`, chunkSize: 7, chunkDelayMs: 1_000 } : undefined));
  const observer = await connectBare(gateway.url, gateway.token);
  try {
    await withMuster(async (h) => {
      const stream = await postChatStream(h.url, { message: `Answer slowly ${marker}`, agentId: "main" });
      assert.is(stream.status, 200, stream.body);
      const start = await stream.next((f) => f.type === "start", 5_000, "start");
      const sessionKey = `agent:main:muster-${start.sessionId}`;
      const aborted = new Promise<{ state?: string }>((resolve) => {
        observer.on("chat", (p) => {
          if (p?.sessionKey === sessionKey && (p.state === "aborted" || p.state === "final" || p.state === "error")) resolve(p);
        });
      });
      await stream.next((f) => f.type === "delta", CHAT_TEST_MS - 10_000, "the first delta");
      stream.close();
      // The client is gone, the turn is not: it is listed in the background until cancelled.
      await waitUntil(async () => (await h.json("/api/chat/turns")).body.turns.some((t: any) => t.id === start.turnId && !t.attached), { timeoutMs: 10_000, label: "the turn in the background" });
      const cancelled = await h.json(`/api/chat/turns/${start.turnId}/abort`, { method: "POST" });
      assert.is(cancelled.body.outcome, "cancelled", JSON.stringify(cancelled.body));

      const end = await aborted;
      assert.is(end.state, "aborted", `the run ended ${end.state}`);

      const next = mark("after-abort");
      const { status, body } = await h.json("/api/chat", { method: "POST", body: { message: `Again ${next}`, agentId: "main", sessionId: start.sessionId } });
      assert.is(status, 200, JSON.stringify(body));
      assert.match(withField(body, "reply").reply.text, next);
    });
  } finally {
    slow();
    await observer.close();
  }
});

test.run();
