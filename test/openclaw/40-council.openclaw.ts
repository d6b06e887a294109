// A council end to end over the real gateway (DESIGN §14.3): positions from both agents,
// a proposal by the moderator, JSON votes (the fake model answers a vote prompt with a
// valid `support` vote), outcome `adopted`, the memo in the workspace and a pending
// approval `council.decision` for the human to ratify.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitUntil } from "../helpers/wait.ts";
import { boundedTest, CHAT_TEST_MS } from "./support/bounded.ts";
import { withMuster } from "./support/muster.ts";
import { peer } from "./support/peer.ts";

const test = suite("council");

// One round with two agents is five gateway turns (two positions, a proposal, two votes).
boundedTest(test, "a two-agent council deliberates through the gateway, adopts, writes its memo and asks for ratification", 5 * CHAT_TEST_MS, async () => {
  const { model } = peer();
  const marker = `MARK-council-${randomUUID().slice(0, 8)}`;
  await withMuster(async (h) => {
    const started = await h.json("/api/council/session", { method: "POST", body: { topic: `Should we adopt ${marker}?`, agents: ["main", "helper"], rounds: 1 } });
    assert.is(started.status, 202, JSON.stringify(started.body));
    assert.is(started.body.session.status, "running");
    const id = started.body.session.id;

    const session = await waitUntil(
      async () => {
        const { body } = await h.json(`/api/council/session/${id}`);
        return body.session.status === "running" ? undefined : body.session;
      },
      { timeoutMs: 5 * CHAT_TEST_MS - 10_000, intervalMs: 100, label: `council ${id} to finish` },
    );
    assert.is(session.status, "completed", `error: ${session.error}`);
    assert.equal(
      session.positions.map((p: { round: number; agentId: string }) => `${p.agentId}/${p.round}`).sort(),
      ["helper/1", "main/1"],
    );
    for (const position of session.positions) assert.match(position.text, marker);
    assert.type(session.proposal, "string");
    assert.equal(
      session.votes.map((v: { agentId: string; vote: string }) => `${v.agentId}:${v.vote}`).sort(),
      ["helper:support", "main:support"],
    );
    assert.is(session.outcome, "adopted");
    // Every turn went through the gateway to the model: both agents were asked to vote.
    const votePrompts = model.requests.filter((r) => /\bvote\b/i.test(r.lastUserText) && /json/i.test(r.lastUserText) && r.receivedAt >= Date.parse(session.createdAt));
    assert.ok(votePrompts.length >= 2, `the model saw ${votePrompts.length} vote prompts`);

    assert.match(session.memoPath ?? "", /^company\/knowledge_base\/council\/\d{4}-\d{2}-\d{2}-.+\.md$/);
    const memo = join(h.workspace, session.memoPath ?? "");
    assert.ok(existsSync(memo), `memo ${memo} written`);
    assert.match(readFileSync(memo, "utf8"), marker);

    const approval = await h.json(`/api/approvals/${session.approvalId}`);
    assert.is(approval.status, 200);
    assert.is(approval.body.approval.status, "pending");
    assert.is(approval.body.approval.command, "council.decision");
  });
});

test.run();
