// Chat turns that outlive their request, on two instances of one PostgreSQL database (issue 25):
// a turn runs on the instance that started it, but `GET /api/chat/turns` and `POST
// /api/chat/turns/:id/abort` answer for the deployment through either instance (chat_turns,
// plugins/chat/services/team-turns.ts). Before, each instance knew only its own turns: the
// other listed nothing and answered 404 CHAT_TURN_NOT_FOUND to the abort. Also: a turn of an
// instance that is gone is not listed and its abort is 410 CHAT_TURN_OWNER_GONE, an owner that
// does not confirm is 504 CHAT_TURN_ABORT_TIMEOUT. One cluster for the file, always stopped;
// skipped, with the reason printed, where PostgreSQL's server binaries are missing.
import * as assert from "uvu/assert";
import { createRequire } from "node:module";
import type { ApiBody } from "@muster/plugin/testing";
import { chatPlugin } from "../../plugins/chat/index.ts";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import { postgresSuite, psql } from "../helpers/postgres-cluster.ts";
import { AGENTS, chatStream, FAST, gate, TOKEN, waitForGateway } from "../plugins/chat/chat-helpers.ts";

const { t, test, database } = postgresSuite("chat turns across two instances on PostgreSQL");

/** How long an abort through one instance waits for the other's confirmation in these tests. */
const CONFIRM_MS = 5_000;
/** How long the slot-release test holds a finished turn's slot row locked (its release waits that long). */
const HOLD_MS = 300;

/** The part of `pg`'s Client the slot-release test uses (`pg` ships no types; it comes with MikroORM's driver). */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
  on(event: "error", listener: () => void): void;
}
const { Client } = createRequire(import.meta.url)("pg") as { Client: new (options: { connectionString: string }) => PgClient };

/** Two instances of one deployment (A started first), both linked to `gw`, with `chat` configuration. */
async function pair(url: string, gw: FakeGateway, chat: Record<string, unknown> = {}): Promise<{ a: TestHost; b: TestHost; stopB: () => Promise<void>; stop: () => Promise<void> }> {
  const options = { plugins: [chatPlugin], env: { DATABASE_URL: url }, config: { gatewayUrl: gw.url, gatewayToken: TOKEN, gatewayTimings: FAST, pluginConfig: { chat } } };
  const a = await startTestHost(options);
  const b = await startTestHost({ ...options, workspace: a.workspace }).catch(async (error) => {
    await a.stop();
    removeHome(a.home);
    throw error;
  });
  let bStopped = false;
  const stopB = async () => {
    if (bStopped) return;
    bStopped = true;
    await b.stop();
    removeHome(b.home);
  };
  await waitForGateway(a, "connected", 20_000);
  await waitForGateway(b, "connected", 20_000);
  return {
    a,
    b,
    stopB,
    stop: async () => {
      await stopB();
      await a.stop();
      removeHome(a.home);
    },
  };
}

/** A fake gateway whose agents reply only when the test opens the gate (or their run is aborted). */
async function heldGateway() {
  const gw = await FakeGateway.start({ token: TOKEN, agents: AGENTS, tickIntervalMs: 5_000 });
  const held = gate<string>();
  gw.onChat((_agent, _message, _key, { signal }) => Promise.race([held.promise, new Promise<string>((resolve) => signal.addEventListener("abort", () => resolve("cut")))]));
  return { gw, held };
}

const turnsOn = async (h: TestHost, query = "") => {
  const listed = await h.json<ApiBody<"getChatTurns">>(`/api/chat/turns${query}`);
  assert.is(listed.status, 200, JSON.stringify(listed.body));
  return listed.body.turns;
};
const abortOn = (h: TestHost, id: string) => h.json<ApiBody<"postChatTurnsAbortById">>(`/api/chat/turns/${id}/abort`, { method: "POST", body: {} });
const codeOf = (body: unknown) => (body as { error?: { code?: string } }).error?.code;

test("team: a turn running on one instance is listed through the other and aborted through it, which answers how it ended; a waiting request on the owner gets 409 CHAT_TURN_CANCELLED", async () => {
  const url = await database();
  const { gw, held } = await heldGateway();
  const { a, b, stop } = await pair(url, gw).catch(async (error) => {
    await gw.stop();
    throw error;
  });
  try {
    // In the background on B.
    const started = await b.json<ApiBody<"postChatTurns">>("/api/chat/turns", { method: "POST", body: { message: "Work on it", agentId: "main" } });
    assert.is(started.status, 202, JSON.stringify(started.body));
    const { id, sessionId } = started.body.turn;
    const onA = await turnsOn(a);
    assert.equal(onA.map((turn) => [turn.id, turn.sessionId, turn.attached]), [[id, sessionId, false]], "listed through the instance not running it");
    assert.equal((await turnsOn(a, `?sessionId=${sessionId}`)).map((turn) => turn.id), [id]);
    assert.equal(await turnsOn(a, "?sessionId=another-session"), []);
    await waitUntil(async () => (await turnsOn(a))[0]?.current?.agentId === "main", { label: "A shows the agent B awaits" });

    const aborted = await abortOn(a, id);
    assert.is(aborted.status, 200, JSON.stringify(aborted.body));
    assert.is(aborted.body.outcome, "cancelled");
    assert.is(aborted.body.turn.id, id);
    assert.is(aborted.body.error?.code, "CHAT_TURN_CANCELLED");
    assert.equal(aborted.body.replies, []);
    await waitUntil(() => gw.requests("chat.abort").length >= 1, { label: "the agent's run aborted on the gateway" });
    assert.equal([await turnsOn(a), await turnsOn(b)], [[], []]);
    const again = await abortOn(a, id);
    assert.is(again.status, 404);
    assert.is(codeOf(again.body), "CHAT_TURN_NOT_FOUND");

    // Waited for on A (JSON), aborted through B.
    const waiting = a.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "Another one", agentId: "helper" } });
    const [turn] = await waitUntil(async () => {
      const listed = await turnsOn(b);
      return listed.length === 1 ? listed : undefined;
    }, { label: "B lists A's waited turn" });
    assert.is(turn!.attached, true);
    const cancelled = await abortOn(b, turn!.id);
    assert.is(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.is(cancelled.body.outcome, "cancelled");
    const answer = await waiting;
    assert.is(answer.status, 409, JSON.stringify(answer.body));
    assert.is(codeOf(answer.body), "CHAT_TURN_CANCELLED");

    // A turn that ends by itself leaves no row behind.
    const third = await b.json<ApiBody<"postChatTurns">>("/api/chat/turns", { method: "POST", body: { message: "Finish this", agentId: "scout" } });
    assert.equal((await turnsOn(a)).map((x) => x.id), [third.body.turn.id]);
    held.open("Done");
    await waitUntil(async () => (await turnsOn(a)).length === 0 && (await turnsOn(b)).length === 0, { label: "the finished turn is listed nowhere" });
    // Its row is gone; the two aborted turns' outcomes are kept a minute for their readers.
    assert.is(psql(url, `SELECT count(*) FROM chat_turns WHERE id = '${third.body.turn.id}'`), "0");
    assert.is(psql(url, "SELECT count(*) FROM chat_turns WHERE finished IS NOT NULL"), "2");
    const late = await abortOn(a, third.body.turn.id);
    assert.is(late.status, 404);
    assert.is(codeOf(late.body), "CHAT_TURN_NOT_FOUND");
  } finally {
    // A reply still held would keep the fake gateway's handler, and its stop, waiting.
    held.open("late");
    await stop();
    await gw.stop();
  }
});

test("team: a turn of an instance that is gone is not listed and its abort is 410 CHAT_TURN_OWNER_GONE (the sweep removes it); an owner that does not confirm is 504 CHAT_TURN_ABORT_TIMEOUT; one that stops while the abort waits is 410", async () => {
  const url = await database();
  const { gw, held } = await heldGateway();
  const { a, b, stopB, stop } = await pair(url, gw, { abortConfirmMs: CONFIRM_MS }).catch(async (error) => {
    await gw.stop();
    throw error;
  });
  // A row as an instance writes it for a turn it runs (the owner's process is what differs).
  const rowOf = (id: string, owner: string) => {
    const record = { id, sessionId: `session-${id}`, mode: "single", agentIds: ["main"], startedAt: new Date().toISOString(), deadline: new Date(Date.now() + 60_000).toISOString(), attached: false, detachedAt: null, current: null, waitingForApproval: null };
    psql(url, `INSERT INTO chat_turns (id, "sessionId", owner, "startedAt", record) VALUES ('${id}', '${record.sessionId}', '${owner}', '${record.startedAt}', '${JSON.stringify(record)}')`);
  };
  try {
    // A's 2 s sweep removes such a row (checked below); when it does so between the insert and
    // the abort, the abort is rightly 404: the row is written again and the abort sent again.
    let dead: Awaited<ReturnType<typeof abortOn>> | undefined;
    for (let attempt = 0; attempt < 5 && (!dead || dead.status === 404); attempt++) {
      rowOf("turn-of-a-dead-instance", "an-instance-that-died");
      assert.equal(await turnsOn(a), [], "a dead instance's turn is not listed");
      dead = await abortOn(a, "turn-of-a-dead-instance");
      if (dead.status === 404) assert.is(psql(url, "SELECT count(*) FROM chat_turns"), "0", "a 404 only once the sweep removed the row");
    }
    assert.is(dead?.status, 410, JSON.stringify(dead?.body));
    assert.is(codeOf(dead?.body), "CHAT_TURN_OWNER_GONE");
    await waitUntil(() => psql(url, "SELECT count(*) FROM chat_turns") === "0", { timeoutMs: 10_000, label: "the sweep removed the dead instance's row" });

    // B lives but runs no such turn: it never confirms.
    const idB = psql(url, `SELECT id FROM muster_instances ORDER BY "startedAt" DESC, id DESC LIMIT 1`);
    assert.ok(idB && idB !== psql(url, `SELECT id FROM muster_instances ORDER BY "startedAt", id LIMIT 1`), "two instances registered");
    rowOf("unconfirmed-turn", idB);
    const before = Date.now();
    const silent = await abortOn(a, "unconfirmed-turn");
    assert.is(silent.status, 504, JSON.stringify(silent.body));
    assert.is(codeOf(silent.body), "CHAT_TURN_ABORT_TIMEOUT");
    assert.ok(Date.now() - before >= CONFIRM_MS, "it waited abortConfirmMs");
    assert.equal((await turnsOn(a)).map((x) => x.id), ["unconfirmed-turn"], "still listed: its instance lives");

    rowOf("turn-whose-owner-stops", idB);
    const waiting = abortOn(a, "turn-whose-owner-stops");
    await stopB();
    const stopped = await waiting;
    assert.is(stopped.status, 410, JSON.stringify(stopped.body));
    assert.is(codeOf(stopped.body), "CHAT_TURN_OWNER_GONE");
    assert.equal(await turnsOn(a), [], "B's rows are no longer listed");
  } finally {
    // A reply still held would keep the fake gateway's handler, and its stop, waiting.
    held.open("late");
    await stop();
    await gw.stop();
  }
});

test("team: with 1 chat at a time, a chat that ended through one instance (JSON, stream, failed) has freed its slot when its answer arrives, however long the release takes: the next chat, at once through the other, is never 429", async () => {
  const url = await database();
  const gw = await FakeGateway.start({ token: TOKEN, agents: AGENTS, tickIntervalMs: 5_000 });
  // The reply the gateway holds until the test lets it go.
  let held: (() => void) | undefined;
  gw.onChat(async (_agent, message) => {
    if (message.includes("after ")) return `Reply: ${message}`;
    await new Promise<void>((resolve) => (held = resolve));
    return message.includes("fail ") ? { deltas: ["partial"], error: "LLM request failed: provider rejected the request" } : `Reply: ${message}`;
  });
  const { a, b, stop } = await pair(url, gw, { turnTimeoutMs: 20_000, rateLimit: { concurrent: 1, perMinute: 1_000 } }).catch(async (error) => {
    await gw.stop();
    throw error;
  });
  const admin = new Client({ connectionString: url });
  admin.on("error", () => {});
  await admin.connect();
  const chat = (h: TestHost, message: string) => h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message, agentId: "main" } });
  /**
   * Lets the running turn end while its slot's row is held by another transaction
   * for HOLD_MS (a release that takes a while: a slow link, a busy database), then chats
   * through `second` the moment `answered` (the end of the answer, as the client sees it) is in.
   */
  const endThenNext = async (second: TestHost, label: string, answered: () => Promise<void>) => {
    await waitUntil(() => held !== undefined, { timeoutMs: 10_000, label: `${label}: its reply held by the gateway` });
    await admin.query("BEGIN");
    await admin.query(`SELECT id FROM muster_rate_slots WHERE feature = 'chat' AND "releasedAt" IS NULL FOR UPDATE`);
    const unlocked = new Promise((resolve) => setTimeout(resolve, HOLD_MS)).then(() => admin.query("ROLLBACK"));
    const release = held!;
    held = undefined;
    release();
    try {
      await answered();
      const next = await chat(second, `after ${label}`);
      assert.is(next.status, 200, `${label}: the next chat, through the other instance right after the answer: ${JSON.stringify(next.body)}`);
    } finally {
      await unlocked;
    }
  };
  try {
    for (let round = 0; round < 10; round++) {
      const [first, second] = round % 2 === 0 ? [a, b] : [b, a];
      const json = chat(first, `json ${round}`);
      await endThenNext(second, `round ${round}, JSON`, async () => {
        const answer = await json;
        assert.is(answer.status, 200, JSON.stringify(answer.body));
      });

      const stream = await chatStream(first, { message: `stream ${round}`, agentId: "main" });
      assert.is(stream.status, 200);
      await endThenNext(second, `round ${round}, stream`, async () => {
        await stream.next((frame) => frame.type === "done", 10_000);
      });
      await stream.ended;

      const failed = chat(first, `fail ${round}`);
      await endThenNext(second, `round ${round}, failed`, async () => {
        const answer = await failed;
        assert.is(answer.status, 502, JSON.stringify(answer.body));
        assert.is(codeOf(answer.body), "CHAT_RUN_FAILED");
      });
    }
  } finally {
    held?.();
    await admin.end().catch(() => {});
    await stop();
    await gw.stop();
  }
});

t.run();
