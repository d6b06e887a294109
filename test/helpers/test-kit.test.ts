// The test kit (@muster/plugin/testing) keeps its promises to a plugin author: its stop removes
// the temporary home it made (and only that), it says what to do when it cannot find a host,
// its client is bound to the host, and docs/plugins.md's example runs as shown.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { MusterApiError } from "@muster/sdk";
import { startTestHost } from "@muster/plugin/testing";
import { createHost } from "../../core/host.ts";

const t = suite("test kit");
const ROOT = new URL("../..", import.meta.url).pathname;

t("stop() removes the temporary home; keepHome and a caller's home are kept", async () => {
  const temp = await startTestHost({ createHost, plugins: [] });
  assert.ok(existsSync(temp.home));
  await temp.stop();
  assert.not.ok(existsSync(temp.home), "the kit's home is removed");

  const kept = await startTestHost({ createHost, plugins: [] });
  const restarted = await kept.restart();
  await restarted.stop({ keepHome: true });
  assert.ok(existsSync(join(kept.home, "muster.db")), "keepHome leaves the data to read");
  rmSync(kept.home, { recursive: true, force: true });

  const own = mkdtempSync(join(tmpdir(), "muster-own-home-"));
  try {
    const h = await startTestHost({ createHost, plugins: [], home: own });
    await h.stop();
    assert.ok(existsSync(join(own, "muster.db")), "a home the caller passed is never removed");
  } finally {
    rmSync(own, { recursive: true, force: true });
  }
});

t("the client is the typed SDK client bound to the host: the session token for the human, X-Agent-Id for clientAs", async () => {
  const h = await startTestHost({ createHost, plugins: [] });
  try {
    assert.is((await h.client.getHealth()).status, "ok");
    assert.ok((await h.client.postAuthLoginLink({ body: {} })).url.includes("/login?code="), "a session-token route answers the human");
    const refused = await h.clientAs("scout").postAuthLoginLink({ body: {} }).catch((e: unknown) => e);
    assert.instance(refused, MusterApiError);
    assert.is((refused as MusterApiError).code, "SESSION_TOKEN_REQUIRED", "an agent has no session token");
  } finally {
    await h.stop();
  }
});

t("without createHost and no muster package beside it, it names the two ways out", async () => {
  const error = await startTestHost().catch((e: Error) => e.message);
  assert.match(String(error), /no createHost given and the "muster" package cannot be loaded/);
  assert.match(String(error), /install muster beside the plugin or pass createHost/);
});

t("docs/plugins.md shows examples/testing/release-notes.test.ts as it is, and it passes under node --test", () => {
  const example = readFileSync(join(ROOT, "examples/testing/release-notes.test.ts"), "utf8");
  assert.ok(readFileSync(join(ROOT, "docs/plugins.md"), "utf8").includes("```ts\n" + example + "```\n"), "docs/plugins.md's example differs from the file");
  const run = spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", "--test", "examples/testing/release-notes.test.ts"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, LOG_LEVEL: "silent" }, timeout: 180_000 });
  assert.is(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /\bpass 2\b/);
});

t.run();
