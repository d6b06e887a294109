// The first start without VAULT_KEY says in its log how to set one (issue 27, item 5): the
// server is started as a user starts it (`node core/main.ts start`) and its output read.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freePort, startServer, stopServer } from "../../../scripts/bench/processes.ts";
import { removeHome } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";

const t = suite("vault: first-start hint");
const ROOT = new URL("../../..", import.meta.url).pathname;

t("no VAULT_KEY (and no GATEWAY_TOKEN): the log says the vault is locked and how to set VAULT_KEY", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-vault-hint-"));
  const port = await freePort();
  const server = await startServer({
    name: "muster",
    args: ["core/main.ts", "start"],
    env: { PORT: String(port), MUSTER_HOME: home, WORKSPACE_DIR: join(home, "workspace"), GATEWAY_URL: "off", LOG_LEVEL: "info" },
    port,
    cwd: ROOT,
    timeoutMs: 60_000,
  });
  try {
    // Not a terminal: the log is JSON lines.
    const line = await waitUntil(() => server.output().split("\n").find((l) => l.includes("vault locked")), { timeoutMs: 30_000, label: "the vault log line" });
    const { msg, level } = JSON.parse(line) as { msg: string; level: number };
    assert.is(level, 40, "a warning");
    assert.match(msg, "VAULT_KEY is not set");
    assert.match(msg, 'export VAULT_KEY="$(openssl rand -base64 32)"');
  } finally {
    await stopServer(server.child);
    removeHome(home);
  }
});

t.run();
