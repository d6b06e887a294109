// bubblewrap detection: when the trial run fails, "auto" falls back to the unsandboxed mode
// with a logged reason, and "bwrap" refuses commands instead. The failure is made real by
// starting the host with a PATH on which there is no bwrap.
import { suite } from "uvu";
import { rmSync } from "node:fs";
import * as assert from "uvu/assert";
import { removeHome } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { scratch, startTerminalHost, terminal } from "./helpers.ts";

const t = suite("terminal without a usable bubblewrap");

/** Starts a host while PATH has no bwrap, and keeps it so until its detection has logged an answer. */
async function startWithoutBwrap(sandbox: "auto" | "bwrap") {
  const saved = process.env.PATH;
  const emptyPath = scratch("muster-term-empty-path-");
  process.env.PATH = emptyPath;
  try {
    const th = await startTerminalHost({ sandbox });
    assert.ok(await waitUntil(() => /bubblewrap cannot run|without a sandbox/.test(th.logs()), { timeoutMs: 10_000 }), "detection answered");
    return th;
  } finally {
    process.env.PATH = saved;
    rmSync(emptyPath, { recursive: true, force: true });
  }
}

t("auto: falls back to no shell, with the reason in the log", async () => {
  const th = await startWithoutBwrap("auto");
  try {
    assert.match(th.logs(), /"reason":"bwrap --version failed/);
    const res = await terminal(th.h, { command: "echo 'a|b'", cwd: th.h.workspace });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.sandbox, "none");
    assert.is(res.body.output, "a|b\n");
  } finally {
    await th.h.stop();
    removeHome(th.h.home);
  }
});

t("bwrap required: commands are refused with 503 TERMINAL_SANDBOX_UNAVAILABLE", async () => {
  const th = await startWithoutBwrap("bwrap");
  try {
    const res = await terminal(th.h, { command: "echo hi", cwd: th.h.workspace });
    assert.is(res.status, 503);
    assert.is(res.body.error.code, "TERMINAL_SANDBOX_UNAVAILABLE");
  } finally {
    await th.h.stop();
    removeHome(th.h.home);
  }
});

t.run();
