// bubblewrap detection: when the trial run fails, commands are off (503 saying how to install
// bubblewrap or opt in) for "auto" and "bwrap" alike; only the explicit opt-in "none" runs the
// unsandboxed allowlist mode (issue 22). GET /api/terminal says which mode is active and why.
// The failure is made real by starting the host with a PATH on which there is no bwrap.
import { suite } from "uvu";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as assert from "uvu/assert";
import { removeHome } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { scratch, startTerminalHost, terminal, terminalStatus } from "./helpers.ts";

const t = suite("terminal without a usable bubblewrap");

/** Starts a host while PATH has no bwrap, and keeps it so until its detection has logged an answer. */
async function startWithoutBwrap(sandbox: "auto" | "bwrap" | "none") {
  const saved = process.env.PATH;
  const emptyPath = scratch("muster-term-empty-path-");
  process.env.PATH = emptyPath;
  try {
    const th = await startTerminalHost({ sandbox });
    assert.ok(await waitUntil(() => /terminal commands are off|without a sandbox/.test(th.logs()), { timeoutMs: 10_000 }), "detection answered");
    return th;
  } finally {
    process.env.PATH = saved;
    rmSync(emptyPath, { recursive: true, force: true });
  }
}

for (const sandbox of ["auto", "bwrap"] as const) {
  t(`${sandbox}: commands are off by default, 503 TERMINAL_SANDBOX_UNAVAILABLE saying how to install bubblewrap or opt in`, async () => {
    const th = await startWithoutBwrap(sandbox);
    try {
      assert.match(th.logs(), /"reason":"bwrap --version failed/);
      const res = await terminal(th.h, { command: "touch ran", cwd: th.h.workspace });
      assert.is(res.status, 503, JSON.stringify(res.body));
      assert.is(res.body.error?.code, "TERMINAL_SANDBOX_UNAVAILABLE");
      assert.match(res.body.error?.message ?? "", /apt-get install bubblewrap/);
      assert.match(res.body.error?.message ?? "", /terminal\.sandbox to "none"/);
      assert.not.ok(existsSync(join(th.h.workspace, "ran")), "nothing ran");
      const status = await terminalStatus(th.h);
      assert.is(status.status, 200, JSON.stringify(status.body));
      assert.equal(status.body, { ok: true, mode: "off", reason: status.body.reason, configured: sandbox, allowAgents: false, programs: null });
      assert.match(status.body.reason, /bwrap --version failed/);
    } finally {
      await th.h.stop();
      removeHome(th.h.home);
    }
  });
}

t("none (the explicit opt-in): allowlisted programs run without a shell, and GET /api/terminal says so", async () => {
  const th = await startWithoutBwrap("none");
  try {
    const res = await terminal(th.h, { command: "echo 'a|b'", cwd: th.h.workspace });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.sandbox, "none");
    assert.is(res.body.output, "a|b\n");
    const status = await terminalStatus(th.h);
    assert.is(status.body.mode, "none");
    assert.is(status.body.configured, "none");
    assert.match(status.body.reason, /terminal\.sandbox is "none"/);
    assert.ok(status.body.programs);
    assert.ok(status.body.programs.includes("ls") && !status.body.programs.includes("tar"), JSON.stringify(status.body.programs));
  } finally {
    await th.h.stop();
    removeHome(th.h.home);
  }
});

t.run();
