// `muster approvals` against a real server: it finds the server through the instance lock,
// decides with the session token file, and reports the server's refusals by code.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeHome, withTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { runMuster } from "./run-muster.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("muster approvals");

const ESC = "\u001b";

async function requestApproval(h: TestHost, title: string, payload: unknown = { to: "#general", text: "hello" }) {
  const res = await h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: { title, type: "post-message", requestedBy: "agent-a", context: "asked by a test", payload } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.approval as { id: string };
}

const statusOf = async (h: TestHost, id: string) => (await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${id}`)).body.approval as { status: string; decidedBy: string | null; reason: string | null };

t("list, show, approve: the inbox of the running server, decided as the owner with the token file", async () => {
  await withTestHost({ config: { owner: "chief" } }, async (h) => {
    const env = { MUSTER_HOME: h.home };
    const a = await requestApproval(h, `post it ${ESC}[2J${ESC}]52;c;ZXZpbA==${ESC}\\`);
    const b = await requestApproval(h, "second");

    const list = await runMuster(["approvals", "list"], env);
    assert.is(list.status, 0, list.stderr);
    assert.match(list.stdout, /Pending: 2/);
    assert.ok(list.stdout.includes(a.id) && list.stdout.includes(b.id));
    assert.not.ok(list.stdout.includes(ESC), "an agent's escape sequences never reach the terminal");
    assert.ok(list.stdout.includes("\\u{1b}[2J"), "they are shown as visible escapes");

    const json = await runMuster(["approvals", "list", "--json"], env);
    assert.is(json.status, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as { pending: { id: string }[]; pendingTotal: number; history?: unknown };
    assert.is(parsed.pendingTotal, 2);
    assert.is(parsed.history, undefined, "history only with --all");

    const show = await runMuster(["approvals", "show", b.id], env);
    assert.is(show.status, 0, show.stderr);
    assert.match(show.stdout, /requested by: agent-a/);
    assert.match(show.stdout, /"to": "#general"/, "the exact payload");

    const approve = await runMuster(["approvals", "approve", b.id, "--reason", "fine"], env);
    assert.is(approve.status, 0, approve.stderr);
    assert.match(approve.stdout, new RegExp(`Approved ${b.id} "second" as chief`));
    const decided = await statusOf(h, b.id);
    assert.equal([decided.status, decided.decidedBy, decided.reason], ["approved", "chief", "fine"]);

    const all = await runMuster(["approvals", "list", "--all", "--json"], env);
    const history = (JSON.parse(all.stdout) as { history: { id: string }[] }).history;
    assert.equal(history.map((x) => x.id), [b.id]);
  });
});

t("reject needs a reason; refusals come back by code and change nothing", async () => {
  await withTestHost({ config: { owner: "chief", approvers: ["deputy"] } }, async (h) => {
    const env = { MUSTER_HOME: h.home };
    const a = await requestApproval(h, "delete the repo");

    const noReason = await runMuster(["approvals", "reject", a.id], env);
    assert.is(noReason.status, 2);
    assert.match(noReason.stderr, /reject needs --reason/);
    assert.match(noReason.stderr, /Usage: muster approvals/);
    const blank = await runMuster(["approvals", "reject", a.id, "--reason", "  "], env);
    assert.is(blank.status, 2);

    const stranger = await runMuster(["approvals", "approve", a.id, "--as", "mallory"], env);
    assert.is(stranger.status, 1);
    assert.match(stranger.stderr, /^muster approvals: APPROVAL_DECIDER_NOT_ALLOWED: /);
    const requester = await runMuster(["approvals", "approve", a.id, "--as", "agent-a"], env);
    assert.is(requester.status, 1);
    assert.match(requester.stderr, /APPROVAL_DECIDER_NOT_ALLOWED|APPROVAL_SELF_DECISION/);
    assert.is((await statusOf(h, a.id)).status, "pending", "nothing was decided");

    const unknown = await runMuster(["approvals", "show", "no-such-approval"], env);
    assert.is(unknown.status, 1);
    assert.match(unknown.stderr, /APPROVAL_NOT_FOUND/);
    const badId = await runMuster(["approvals", "approve", "bad id!"], env);
    assert.is(badId.status, 1);
    assert.match(badId.stderr, /VALIDATION_FAILED/);

    const rejected = await runMuster(["approvals", "reject", a.id, "--reason", "too risky", "--as", "deputy"], env);
    assert.is(rejected.status, 0, rejected.stderr);
    const after = await statusOf(h, a.id);
    assert.equal([after.status, after.decidedBy, after.reason], ["rejected", "deputy", "too risky"]);

    const again = await runMuster(["approvals", "approve", a.id], env);
    assert.is(again.status, 1);
    assert.match(again.stderr, /APPROVAL_ALREADY_RESOLVED/);
    assert.is((await statusOf(h, a.id)).status, "rejected");
  });
});

t("usage mistakes exit 2; no server or no token file exits 1 with a coded message", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-approvals-"));
  try {
    for (const args of [["approvals"], ["approvals", "frob"], ["approvals", "list", "--bogus"], ["approvals", "show"], ["approvals", "approve", "a", "b"], ["approvals", "show", ".."], ["approvals", "reject", ".", "--reason", "r"]]) {
      const run = await runMuster(args, { MUSTER_HOME: home });
      assert.is(run.status, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, /Usage: muster approvals/);
      assert.is(run.stdout, "");
    }
    const none = await runMuster(["approvals", "list"], { MUSTER_HOME: home, PORT: "1" });
    assert.is(none.status, 1);
    assert.match(none.stderr, /CLI_SERVER_NOT_RUNNING/);
  } finally {
    removeHome(home);
  }
  await withTestHost(async (h) => {
    const a = await requestApproval(h, "x");
    rmSync(join(h.home, "session-token"));
    const run = await runMuster(["approvals", "approve", a.id], { MUSTER_HOME: h.home });
    assert.is(run.status, 1);
    assert.match(run.stderr, /CLI_SESSION_TOKEN_UNREADABLE/);
    assert.is((await statusOf(h, a.id)).status, "pending");
  });
});

t.run();
