// Who may run commands, where, with which secrets, and how many at once. Runs without the
// sandbox (the rules are the same in both modes) to stay fast.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeHome } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { processesMatching, scratch, startTerminalHost, terminal, type TerminalHost } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ th: TerminalHost; agents: TerminalHost; dir: string }>("terminal rules");
const SECRET = "s3cr3t-value-for-terminal-9f2c";

t.before(async (ctx) => {
  ctx.th = await startTerminalHost({ sandbox: "none" });
  ctx.agents = await startTerminalHost({ sandbox: "none", allowAgents: true });
  ctx.dir = scratch();
  const saved = await ctx.th.h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: { name: "API_TOKEN", value: SECRET } });
  assert.is(saved.status, 201, JSON.stringify(saved.body));
});
t.after(async (ctx) => {
  for (const th of [ctx.th, ctx.agents]) {
    await th.h.stop();
    removeHome(th.h.home);
  }
  rmSync(ctx.dir, { recursive: true, force: true });
});

t("the session token is required: missing or wrong → 401, nothing runs", async ({ th, dir }) => {
  const missing = await terminal(th.h, { command: "touch ran", cwd: dir }, { session: false });
  assert.is(missing.status, 401);
  assert.is(missing.body.error?.code, "SESSION_TOKEN_REQUIRED");
  const wrong = await terminal(th.h, { command: "touch ran", cwd: dir }, { session: false, headers: { "x-session-token": "0".repeat(64) } });
  assert.is(wrong.status, 401);
  assert.not.ok(existsSync(join(dir, "ran")));
});

t("agents are refused unless terminal.allowAgents is set", async ({ th, agents, dir }) => {
  const refused = await terminal(th.h, { command: "echo hi", cwd: dir }, { headers: { "x-agent-id": "loki" } });
  assert.is(refused.status, 403);
  assert.is(refused.body.error?.code, "TERMINAL_AGENT_FORBIDDEN");
  const allowed = await terminal(agents.h, { command: "echo hi", cwd: dir }, { headers: { "x-agent-id": "loki" } });
  assert.is(allowed.status, 200);
  assert.is(allowed.body.output, "hi\n");
});

t("cwd must resolve inside $HOME or the temp directory, never in Muster's data directory: .., absolute paths and symlinks are resolved first", async ({ th, dir }) => {
  symlinkSync("/etc", join(dir, "etc-link"));
  mkdirSync(join(dir, "sub"));
  symlinkSync(join(dir, "sub"), join(dir, "inner-link"));
  for (const cwd of ["/etc", "/", "/usr/bin", `${dir}/../../etc`, join(dir, "etc-link"), "../../../../../../../etc", th.h.home]) {
    const res = await terminal(th.h, { command: "echo hi", cwd });
    assert.is(res.status, 403, `${cwd}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error?.code, "TERMINAL_CWD_FORBIDDEN", cwd);
  }
  writeFileSync(join(dir, "a-file"), "x");
  for (const cwd of [join(dir, "missing"), join(dir, "a-file")]) {
    const res = await terminal(th.h, { command: "echo hi", cwd });
    assert.is(res.status, 400, cwd);
    assert.is(res.body.error?.code, "TERMINAL_CWD_NOT_FOUND", cwd);
  }
  const workspace = await terminal(th.h, { command: "pwd", cwd: th.h.workspace });
  assert.is(workspace.status, 200, "the workspace inside MUSTER_HOME is a working directory");
  const byDefault = await terminal(th.h, { command: "pwd" });
  assert.is(byDefault.body.output, `${th.h.workspace}\n`, "without cwd a command runs in the workspace");
  const inside = await terminal(th.h, { command: "pwd", cwd: join(dir, "inner-link") });
  assert.is(inside.status, 200);
  assert.is(inside.body.output, `${join(dir, "sub")}\n`);
});

t("bad bodies are 400 VALIDATION_FAILED", async ({ th, dir }) => {
  for (const body of [
    {},
    { command: "" },
    { command: "x".repeat(8001) },
    { command: "echo a\u0000b" },
    { command: 42 },
    { command: "echo", timeoutMs: 120_001 },
    { command: "echo", timeoutMs: 0 },
    { command: "echo", timeoutMs: 1.5 },
    { command: "echo", cwd: "" },
    { command: "echo", extra: true },
    { command: "echo", secrets: { "BAD-NAME": "API_TOKEN" } },
    { command: "echo", secrets: ["API_TOKEN"] },
  ]) {
    const res = await terminal(th.h, { cwd: dir, ...body });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error?.code, "VALIDATION_FAILED", JSON.stringify(body));
  }
});

t("injected secrets reach the command and are masked in output, activities and logs", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: "printenv TOKEN", cwd: dir, secrets: { TOKEN: "API_TOKEN" } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.output, "[redacted:API_TOKEN]\n");
  assert.is(res.body.exitCode, 0);
  const echoed = await terminal(th.h, { command: `echo ${SECRET}`, cwd: dir });
  assert.is(echoed.body.output, "[redacted:API_TOKEN]\n");
  const later = await terminal(th.h, { command: "printenv TOKEN", cwd: dir });
  assert.is(later.body.exitCode, 1, "a secret is injected for its command only");
  const activities = await th.h.json<ApiBody<"getActivities">>("/api/activities?limit=50");
  assert.not.ok(JSON.stringify(activities.body).includes(SECRET));
  assert.ok(activities.body.some((a) => a.action === "terminal.command"));
  assert.not.ok(th.logs().includes(SECRET));
});

t("unknown secrets are 404, protected variables 403, and a locked vault answers its own 503", async ({ th, dir }) => {
  const unknown = await terminal(th.h, { command: "printenv X", cwd: dir, secrets: { X: "NO_SUCH_SECRET" } });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error?.code, "TERMINAL_SECRET_NOT_FOUND");
  for (const envVar of ["PATH", "LD_PRELOAD", "NODE_OPTIONS", "VAULT_KEY", "GIT_SSH_COMMAND"]) {
    const res = await terminal(th.h, { command: "printenv", cwd: dir, secrets: { [envVar]: "API_TOKEN" } });
    assert.is(res.status, 403, envVar);
    assert.is(res.body.error?.code, "TERMINAL_ENV_VAR_PROTECTED", envVar);
  }
  const locked = await startTerminalHost({ sandbox: "none" }, {});
  try {
    const res = await terminal(locked.h, { command: "printenv X", cwd: dir, secrets: { X: "API_TOKEN" } });
    assert.is(res.status, 503);
    assert.is(res.body.error?.code, "VAULT_LOCKED");
  } finally {
    await locked.h.stop();
    removeHome(locked.h.home);
  }
});

t("at most 2 commands at once: of 10 concurrent runs 8 get 429 with Retry-After, and slots are released", async ({ th, dir }) => {
  const results = await Promise.all(Array.from({ length: 10 }, () => terminal(th.h, { command: "sleep 1.5", cwd: dir })));
  const statuses = results.map((r) => r.status).sort();
  assert.equal(statuses, [200, 200, 429, 429, 429, 429, 429, 429, 429, 429]);
  const limited = results.find((r) => r.status === 429)!;
  assert.is(limited.body.error?.code, "RATE_LIMITED");
  assert.ok(Number(limited.headers.get("retry-after")) >= 1);
  const after = await Promise.all([0, 1].map(() => terminal(th.h, { command: "echo again", cwd: dir })));
  assert.equal(after.map((r) => r.status), [200, 200]);
});

t("a client that disconnects kills its command and frees its slot", async ({ th, dir }) => {
  const controller = new AbortController();
  const pending = terminal(th.h, { command: "sleep 26.2718", cwd: dir }, { signal: controller.signal }).catch(() => null);
  assert.ok(await waitUntil(() => processesMatching("sleep 26.2718").length > 0, { timeoutMs: 3000 }));
  controller.abort();
  await pending;
  assert.ok(await waitUntil(() => processesMatching("sleep 26.2718").length === 0, { timeoutMs: 3000 }));
  const both = await Promise.all([0, 1].map(() => terminal(th.h, { command: "echo free", cwd: dir })));
  assert.equal(both.map((r) => r.status), [200, 200]);
});

t.run();
