// The fake model of the real-peer suite, on its own (part of `npm test`: no gateway needed):
// the SSE stream OpenClaw reads (reference §3.4), replies derived from the user's turn,
// per-request hooks (text, 400, tool calls, slow chunks) and the requests it records.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startFakeModel, userTurnText, type FakeModel } from "../../scripts/openclaw-peer/fake-model.ts";
import { waitUntil } from "../helpers/wait.ts";

const INTERNAL = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\nActive exec sessions: none\n<<<END_OPENCLAW_INTERNAL_CONTEXT>>>";

/** The request OpenClaw sends: system prompt, the user's turn, then its own context block (observed). */
const body = (userText: string, extra: Array<{ role: string; content: unknown }> = []) => ({
  model: "fake-model",
  stream: true,
  messages: [
    { role: "system", content: "You are a personal assistant running inside OpenClaw." },
    { role: "user", content: `[Mon 2026-11-23 22:59 UTC] ${userText}\n\nRuntime: agent=main | model=fake/fake-model` },
    { role: "user", content: [{ type: "text", text: INTERNAL }] },
    ...extra,
  ],
});

/** OpenAI-style stream chunks as the fake model writes them; `any`: each test reads the fields of the chunk kind it expects. */
type Chunk = any;

async function complete(model: FakeModel, payload: unknown): Promise<{ status: number; chunks: Chunk[]; raw: string }> {
  const res = await fetch(`${model.baseUrl}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
  const raw = await res.text();
  const chunks = raw
    .split("\n\n")
    .filter((frame) => frame.startsWith("data: "))
    .map((frame) => frame.slice(6))
    .map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
  return { status: res.status, chunks, raw };
}

const content = (chunks: Chunk[]) => chunks.filter((c) => c !== "[DONE]" && c.choices[0]?.delta?.content).map((c) => c.choices[0].delta.content).join("");

async function withModel(fn: (model: FakeModel) => Promise<void>): Promise<void> {
  const model = await startFakeModel();
  try {
    await fn(model);
  } finally {
    await model.stop();
  }
}

test("GET /v1/models lists the one model the gateway is configured with", () =>
  withModel(async (model) => {
    const res = await fetch(`${model.baseUrl}/models`);
    assert.is(res.status, 200);
    assert.equal(await res.json(), { object: "list", data: [{ id: "fake-model", object: "model", created: 0, owned_by: "fake" }] });
  }));

test("a streamed completion: role chunk, content chunks echoing the markers, finish, usage, [DONE]", () =>
  withModel(async (model) => {
    const { status, chunks, raw } = await complete(model, body("Please echo MARK-a1 and MARK-b2"));
    assert.is(status, 200);
    assert.is(chunks[0].choices[0].delta.role, "assistant");
    assert.is(content(chunks), "Fake model reply: MARK-a1 MARK-b2");
    const finish = chunks.find((c) => c !== "[DONE]" && c.choices[0]?.finish_reason);
    assert.is(finish.choices[0].finish_reason, "stop");
    const usage = chunks.at(-2);
    assert.equal(usage.choices, []);
    assert.ok(usage.usage.prompt_tokens > 0 && usage.usage.completion_tokens > 0);
    assert.is(chunks.at(-1), "[DONE]");
    assert.ok(raw.endsWith("data: [DONE]\n\n"));
  }));

test("the user's turn is read past OpenClaw's own context block, and every request is recorded", () =>
  withModel(async (model) => {
    await complete(model, body("first MARK-one"));
    await complete(model, body("second, no marker"));
    assert.equal(
      model.requests.map((r) => [r.n, r.lastUserText.includes("MARK-one"), r.lastRole]),
      [
        [1, true, "user"],
        [2, false, "user"],
      ],
    );
    assert.is(userTurnText(body("x").messages), "[Mon 2026-11-23 22:59 UTC] x\n\nRuntime: agent=main | model=fake/fake-model");
    const second = await model.waitForRequest((r) => r.n === 2, 100);
    assert.match(second.lastUserText, "second");
  }));

test("a prompt asking for a JSON vote gets a valid support vote", () =>
  withModel(async (model) => {
    const { chunks } = await complete(model, body('Vote on the proposal. Reply with one JSON object: {"vote": …}'));
    const vote = JSON.parse(content(chunks));
    assert.is(vote.vote, "support");
    assert.ok(vote.confidence >= 0 && vote.confidence <= 1);
    assert.type(vote.reason, "string");
  }));

test("hooks: the newest decides, undefined passes on, removal restores the default; status 400 answers an OpenAI error", () =>
  withModel(async (model) => {
    const offText = model.use((r) => (r.lastUserText.includes("MARK-x") ? { text: "custom" } : undefined));
    const offRefuse = model.use((r) => (r.lastUserText.includes("MARK-refuse") ? { status: 400 } : undefined));
    assert.is(content((await complete(model, body("MARK-x"))).chunks), "custom");
    const refused = await fetch(`${model.baseUrl}/chat/completions`, { method: "POST", body: JSON.stringify(body("MARK-refuse")) });
    assert.is(refused.status, 400);
    assert.is(((await refused.json()) as { error: { type: string } }).error.type, "invalid_request_error");
    offText();
    offRefuse();
    assert.is(content((await complete(model, body("MARK-x"))).chunks), "Fake model reply: MARK-x");
  }));

test("a tool-call reply streams tool_calls with finish reason tool_calls; the follow-up with the tool's result has lastRole tool", () =>
  withModel(async (model) => {
    model.use((r) => (r.lastUserText.includes("MARK-tool") && r.lastRole !== "tool" ? { toolCalls: [{ name: "read", arguments: { path: "README.md" } }] } : undefined));
    const { chunks } = await complete(model, body("MARK-tool please"));
    const call = chunks.find((c) => c !== "[DONE]" && c.choices[0]?.delta?.tool_calls)!.choices[0].delta.tool_calls[0];
    assert.is(call.function.name, "read");
    assert.equal(JSON.parse(call.function.arguments), { path: "README.md" });
    assert.ok(chunks.some((c) => c !== "[DONE]" && c.choices[0]?.finish_reason === "tool_calls"));
    const followUp = await complete(
      model,
      body("MARK-tool please", [
        { role: "assistant", content: [] },
        { role: "tool", content: "file text" },
      ]),
    );
    assert.is(model.requests.at(-1)!.lastRole, "tool");
    assert.is(content(followUp.chunks), "Fake model reply: MARK-tool");
    // What the real gateway sends (observed with an exec approval): its context block again after the tool's result.
    const realFollowUp = await complete(
      model,
      body("MARK-tool please", [
        { role: "assistant", content: [] },
        { role: "tool", content: "Exec denied (user-denied): touch x" },
        { role: "user", content: [{ type: "text", text: INTERNAL }] },
      ]),
    );
    assert.is(model.requests.at(-1)!.lastRole, "tool");
    assert.is(content(realFollowUp.chunks), "Fake model reply: MARK-tool");
  }));

test("a slow reply can be left mid-stream: the model stops writing and closes the stream", () =>
  withModel(async (model) => {
    model.use(() => ({ text: "x".repeat(100), chunkSize: 1, chunkDelayMs: 20 }));
    const controller = new AbortController();
    const res = await fetch(`${model.baseUrl}/chat/completions`, { method: "POST", body: JSON.stringify(body("slow")), signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    assert.is(model.openStreams(), 1);
    controller.abort();
    await waitUntil(() => model.openStreams() === 0, { label: "the stream to close" });
  }));

test.run();
