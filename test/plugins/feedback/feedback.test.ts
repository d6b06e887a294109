import { suite } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost; outside: string }>("feedback");
const DIR = "company/knowledge_base/feedback";

t.before(async (ctx) => {
  ctx.h = await startTestHost({ config: { scaffoldWorkspace: false } });
  rmSync(join(ctx.h.workspace, "company"), { recursive: true, force: true });
  ctx.outside = mkdtempSync(join(tmpdir(), "muster-outside-"));
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
  rmSync(ctx.outside, { recursive: true, force: true });
});

const count = async (h: TestHost) => (await h.json<ApiBody<"getFeedback">>("/api/feedback?limit=500")).body.entries.length;

t("POST stores the entry, creates the directories and appends to the learnings file", async ({ h }) => {
  const res = await h.json<ApiBody<"postFeedback">>("/api/feedback", {
    method: "POST",
    body: { agentId: "odin", taskId: "T-1", type: "correction", content: "Run the tests before review.", context: "PR #12" },
  });
  assert.is(res.status, 201);
  assert.is(res.body.ok, true);
  const entry = res.body.entry;
  assert.match(entry.id, /^[0-9a-f-]{36}$/);
  assert.equal({ ...entry, id: undefined, createdAt: undefined }, {
    id: undefined,
    agentId: "odin",
    taskId: "T-1",
    type: "correction",
    content: "Run the tests before review.",
    context: "PR #12",
    createdAt: undefined,
    appliedTo: [`${DIR}/odin-learnings.md`],
  });
  const file = readFileSync(join(h.workspace, DIR, "odin-learnings.md"), "utf8");
  assert.ok(file.startsWith("# Learning Log — odin\n\n## ❌ Correction — "));
  assert.ok(file.includes("Task: T-1\n\nRun the tests before review.\n\nContext: PR #12\n"));
  assert.ok(file.includes(`<!-- feedback ${entry.id} -->`));
});

t("later entries append without a second header; the four types; taskId and context optional", async ({ h }) => {
  for (const type of ["praise", "pattern", "rule"]) {
    const res = await h.json<ApiBody<"postFeedback">>("/api/feedback", { method: "POST", body: { agentId: "odin", type, content: `${type} note` } });
    assert.is(res.status, 201, type);
    assert.is(res.body.entry.taskId, null);
    assert.is(res.body.entry.context, null);
  }
  const file = readFileSync(join(h.workspace, DIR, "odin-learnings.md"), "utf8");
  assert.is(file.split("# Learning Log").length, 2);
  for (const heading of ["❌ Correction", "✅ Praise", "🔄 Pattern", "📏 Rule"]) assert.ok(file.includes(`## ${heading} — `), heading);
  assert.ok(file.indexOf("praise note") < file.indexOf("rule note"));
});

t("GET lists newest first with agent and type filters and limit", async ({ h }) => {
  await h.json<ApiBody<"postFeedback">>("/api/feedback", { method: "POST", body: { agentId: "thor", type: "praise", content: "Nice." } });
  const all = await h.json<ApiBody<"getFeedback">>("/api/feedback");
  assert.is(all.status, 200);
  assert.is(all.body.ok, true);
  assert.is(all.body.entries.length, 5);
  assert.is(all.body.entries[0]?.agentId, "thor");
  assert.is(all.body.entries[4]?.type, "correction");
  const odin = await h.json<ApiBody<"getFeedback">>("/api/feedback?agent=odin");
  assert.is(odin.body.entries.length, 4);
  assert.ok(odin.body.entries.every((e) => e.agentId === "odin"));
  assert.is((await h.json<ApiBody<"getFeedback">>("/api/feedback?agent=odin&type=rule")).body.entries.length, 1);
  assert.is((await h.json<ApiBody<"getFeedback">>("/api/feedback?limit=2")).body.entries.length, 2);
  assert.equal((await h.json<ApiBody<"getFeedback">>("/api/feedback?agent=nobody")).body.entries, []);
});

t("concurrent posts for a new agent write one header and every entry", async ({ h }) => {
  await Promise.all(Array.from({ length: 10 }, (_, i) => h.json<ApiBody<"postFeedback">>("/api/feedback", { method: "POST", body: { agentId: "freya", type: "rule", content: `rule ${i}` } })));
  const file = readFileSync(join(h.workspace, DIR, "freya-learnings.md"), "utf8");
  assert.is(file.split("# Learning Log").length, 2);
  for (let i = 0; i < 10; i++) assert.ok(file.includes(`rule ${i}\n`), String(i));
});

t("path traversal and bad bodies are refused and write nothing", async ({ h }) => {
  const before = await count(h);
  const filesBefore = readdirSync(join(h.workspace, DIR)).sort();
  const bad: [unknown, string][] = [
    [{ agentId: "../../../tmp/evil", type: "rule", content: "x" }, "dot-dot"],
    [{ agentId: "%2e%2e", type: "rule", content: "x" }, "encoded dot-dot"],
    [{ agentId: "/etc/passwd", type: "rule", content: "x" }, "absolute"],
    [{ agentId: "..", type: "rule", content: "x" }, "parent"],
    [{ agentId: "a/b", type: "rule", content: "x" }, "slash"],
    [{ agentId: "a\u0000b", type: "rule", content: "x" }, "NUL"],
    [{ agentId: "x".repeat(65), type: "rule", content: "x" }, "too long"],
    [{ agentId: "odin", type: "advice", content: "x" }, "unknown type"],
    [{ agentId: "odin", type: "rule", content: "" }, "empty content"],
    [{ agentId: "odin", type: "rule", content: "   " }, "blank content"],
    [{ agentId: "odin", type: "rule", content: "a\u0007b" }, "control character"],
    [{ agentId: "odin", type: "rule", content: "x".repeat(20_001) }, "content too long"],
    [{ agentId: "odin", type: "rule", content: "x", appliedTo: ["/etc/passwd"] }, "read-only field"],
    [{ agentId: "odin", type: "rule", content: "x", taskId: "../x" }, "task id"],
    [{ agentId: 7, type: "rule", content: "x" }, "wrong type"],
    [{}, "empty"],
    [[], "array"],
  ];
  for (const [body, label] of bad) {
    const res = await h.json<ApiBody<"postFeedback">>("/api/feedback", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
    assert.is(res.status, 400, label);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", label);
  }
  for (const q of ["agent=..%2F..%2Fetc", "agent=%2e%2e", "type=advice", "limit=0", "limit=501", "bogus=1"]) {
    const res = await h.json<ApiBody<"getFeedback">>(`/api/feedback?${q}`);
    assert.is(res.status, 400, q);
  }
  assert.is(await count(h), before);
  assert.equal(readdirSync(join(h.workspace, DIR)).sort(), filesBefore);
  assert.not.ok(existsSync(join(h.workspace, "..", "evil-learnings.md")));
});

t("a learnings file or directory that is a symlink out of the workspace is refused and nothing is stored", async ({ h, outside }) => {
  const before = await count(h);
  writeFileSync(join(outside, "heimdall.md"), "untouched");
  symlinkSync(join(outside, "heimdall.md"), join(h.workspace, DIR, "heimdall-learnings.md"));
  const res = await h.json<ApiBody<"postFeedback">>("/api/feedback", { method: "POST", body: { agentId: "heimdall", type: "rule", content: "x" } });
  assert.is(res.status, 400);
  assert.is(res.body.error?.code, "PATH_OUTSIDE_WORKSPACE");
  assert.is(readFileSync(join(outside, "heimdall.md"), "utf8"), "untouched");
  // A dangling link pointing outside is refused by the workspace path check (and the file
  // is opened with O_NOFOLLOW as a second line of defence).
  symlinkSync(join(outside, "loki.md"), join(h.workspace, DIR, "loki-learnings.md"));
  const dangling = await h.json<ApiBody<"postFeedback">>("/api/feedback", { method: "POST", body: { agentId: "loki", type: "rule", content: "x" } });
  assert.is(dangling.status, 400);
  assert.is(dangling.body.error?.code, "PATH_OUTSIDE_WORKSPACE");
  assert.not.ok(existsSync(join(outside, "loki.md")));

  mkdirSync(join(h.workspace, DIR, "bragi-learnings.md"));
  const dir = await h.json<ApiBody<"postFeedback">>("/api/feedback", { method: "POST", body: { agentId: "bragi", type: "rule", content: "x" } });
  assert.is(dir.status, 409);
  assert.is(dir.body.error?.code, "FEEDBACK_FILE_UNWRITABLE");
  assert.is(await count(h), before, "the failed append rolled the row back");

  rmSync(join(h.workspace, "company"), { recursive: true, force: true });
  symlinkSync(outside, join(h.workspace, "company"));
  const viaDir = await h.json<ApiBody<"postFeedback">>("/api/feedback", { method: "POST", body: { agentId: "sindri", type: "rule", content: "x" } });
  assert.is(viaDir.status, 400);
  assert.is(viaDir.body.error?.code, "PATH_OUTSIDE_WORKSPACE");
  assert.equal(readdirSync(outside), ["heimdall.md"]);
  assert.is(await count(h), before);
  rmSync(join(h.workspace, "company"));
});

t("entries survive a restart", async (ctx) => {
  const before = await count(ctx.h);
  ctx.h = await ctx.h.restart();
  assert.is(await count(ctx.h), before);
});

t.run();
