// The one inbox against the real gateway: the helper agent's shell commands need approval
// (scripts/openclaw-peer/gateway-config.ts), the fake model answers a marker with an `exec`
// tool call, and the request arrives in Muster as an openclaw.exec approval. Approved in
// Muster, the command runs in the gateway (the file it creates appears in helper's
// workspace); rejected, it does not.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitUntil } from "../helpers/wait.ts";
import { boundedTest, CHAT_TEST_MS } from "./support/bounded.ts";
import { withMuster } from "./support/muster.ts";
import { peer } from "./support/peer.ts";
import { decideApproval, withField } from "@muster/plugin/testing";
import type { ApiBody, Approval } from "@muster/plugin/testing";

const test = suite("approvals: one inbox");

async function runShell(decision: "approved" | "rejected"): Promise<void> {
  const { model, gateway } = peer();
  const marker = `MARK-approval-${randomUUID().slice(0, 8)}`;
  const file = `${marker}.txt`;
  const off = model.use((request) => {
    if (!request.allText.includes(marker)) return undefined;
    if (request.lastRole === "tool") return { text: `done ${marker}` };
    return { toolCalls: [{ name: "exec", arguments: { command: `touch ${file}` } }] };
  });
  try {
    await withMuster(
      async (h) => {
        // The chat answers only after the tool call is settled, so it is awaited at the end.
        const chat = h.json("/api/chat", { method: "POST", body: { agentId: "helper", message: `Create the file ${marker}` } });
        const approval = await waitUntil(async () => {
          const body = (await h.json<ApiBody<"getApprovals">>("/api/approvals?pendingLimit=500")).body;
          return body.pending.find((a) => a.command === "openclaw.exec" && String(a.title).includes(file));
        }, { timeoutMs: CHAT_TEST_MS, label: "openclaw.exec approval in Muster" });
        // The payload of an openclaw.exec approval is the gateway's exec request (the approval contract leaves payloads to who asked).
        const full = (await h.json(`/api/approvals/${approval.id}`)).body.approval as Approval & { payload: { request: { command: unknown } } };
        assert.ok(String(full.payload.request.command).includes(`touch ${file}`), JSON.stringify(full.payload));
        assert.is(full.requestedBy, "helper");
        const decided = await decideApproval(h, approval.id, decision, "Owner");
        assert.is(decided.status, 200, JSON.stringify(decided.body));
        const path = join(gateway.layout.stateDir, "workspace-helper", file);
        if (decision === "approved") {
          assert.is(decided.body.approval.executionStatus, "succeeded", JSON.stringify(decided.body.approval));
          await waitUntil(() => existsSync(path), { timeoutMs: CHAT_TEST_MS, label: `${file} created by the approved command` });
        } else {
          assert.is(decided.body.approval.executionStatus, "none");
        }
        // The gateway hands the command's result (or the denial) back to the model in the same
        // turn, and the chat answers with the model's reply to it.
        const answered = await chat;
        assert.is(answered.status, 200, JSON.stringify(answered.body));
        assert.match(withField(answered.body, "reply").reply.text, `done ${marker}`);
        // The run ended only after the gateway acted on the deny.
        if (decision === "rejected") assert.not.ok(existsSync(path), "a denied command must not run");
      },
      { config: { owner: "Owner" } },
    );
  } finally {
    off();
  }
}

boundedTest(test, "a shell command the helper agent asks to run is approved in Muster and runs in the gateway", 3 * CHAT_TEST_MS, () => runShell("approved"));
boundedTest(test, "a rejected one does not run", 3 * CHAT_TEST_MS, () => runShell("rejected"));

test.run();
