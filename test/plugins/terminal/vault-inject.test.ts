// Issue 22, finding 8: a variable set with POST /api/vault/inject reaches every terminal
// command afterwards, sandboxed or not, masked in the output like any secret; deleting the
// secret removes it. Muster's own credentials never reach a command. Before the fix no
// terminal command saw an injected variable (docs/vault.md said they did).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { rmSync } from "node:fs";
import { removeHome } from "../../helpers/start-test-host.ts";
import { scratch, startTerminalHost, terminal, terminalStatus, type TerminalHost } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const SECRET = "injected-value-for-terminal-4b7e";
const t = suite<{ hosts: TerminalHost[]; dir: string }>("terminal commands see variables injected from the vault");

t.before(async (ctx) => {
  ctx.dir = scratch();
  ctx.hosts = [await startTerminalHost({ sandbox: "none" })];
  const sandboxed = await startTerminalHost({ sandbox: "auto" });
  if ((await terminalStatus(sandboxed.h)).body.mode === "bwrap") ctx.hosts.push(sandboxed);
  else {
    console.warn("vault-inject: bubblewrap cannot run here; only the unsandboxed mode is checked");
    await sandboxed.h.stop();
    removeHome(sandboxed.h.home);
  }
});
t.after(async (ctx) => {
  for (const th of ctx.hosts) {
    await th.h.stop();
    removeHome(th.h.home);
  }
  rmSync(ctx.dir, { recursive: true, force: true });
});

t("an injected variable reaches later commands in both modes, masked; deleting the secret removes it", async ({ hosts, dir }) => {
  for (const th of hosts) {
    const mode = (await terminalStatus(th.h)).body.mode;
    const before = await terminal(th.h, { command: "printenv DEPLOY_TOKEN", cwd: dir });
    assert.is(before.body.exitCode, 1, `${mode}: nothing injected yet`);
    assert.is((await th.h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: { name: "DEPLOY", value: SECRET } })).status, 201);
    const injected = await th.h.json<ApiBody<"postVaultInject">>("/api/vault/inject", { method: "POST", body: { name: "DEPLOY", envVar: "DEPLOY_TOKEN" }, session: true });
    assert.is(injected.status, 200, JSON.stringify(injected.body));
    const seen = await terminal(th.h, { command: "printenv DEPLOY_TOKEN", cwd: dir });
    assert.is(seen.status, 200, JSON.stringify(seen.body));
    assert.is(seen.body.exitCode, 0, `${mode}: ${seen.body.output}`);
    assert.is(seen.body.output, "[redacted:DEPLOY]\n", mode);
    const credentials = await terminal(th.h, { command: "printenv VAULT_KEY", cwd: dir });
    assert.is(credentials.body.exitCode, 1, `${mode}: Muster's own credentials never reach a command`);
    assert.is((await th.h.json<ApiBody<"deleteVault">>("/api/vault?name=DEPLOY", { method: "DELETE", session: true })).status, 200);
    const gone = await terminal(th.h, { command: "printenv DEPLOY_TOKEN", cwd: dir });
    assert.is(gone.body.exitCode, 1, `${mode}: a deleted secret's variable is gone`);
  }
});

t.run();
