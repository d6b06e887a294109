// `muster doctor` through the CLI (issue 27, items 3 and 5): an optional vault key never
// hides the gateway diagnosis (a warning, checked last), a wrong VAULT_KEY is told by the
// vault's key check, and the organisation's agents the gateway does not know are listed
// with the fix.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withTestHost } from "../helpers/start-test-host.ts";
import { doctor, envFor, GATEWAY, report, statuses, withGateway } from "./doctor-run.ts";

const t = suite("muster doctor: crew and vault key");
const RIGHT_KEY = "the-right-vault-passphrase-42";

const ORG = `org:
  owner: owner
  agents:
    aide: {id: aide, name: Aide, tier: 3, role: assistant, model: m-small}
    scribe: {id: scribe, name: Scribe, tier: 3, role: writer, model: m-small}
`;

function writeOrg(home: string): void {
  mkdirSync(join(home, "workspace", "company"), { recursive: true });
  writeFileSync(join(home, "workspace", "company", "org_structure.yaml"), ORG);
}

t("no VAULT_KEY and no GATEWAY_TOKEN: the vault key is a warning, checked last; every gateway check still runs", async () => {
  await withGateway({}, async (gw, home) => {
    const json = await report({ ...envFor(null, home), GATEWAY_URL: gw.url });
    assert.is(json.code, 1, "the missing gateway token is a failure");
    assert.equal(json.checks.at(-1)!.id, "vault");
    assert.is(json.status.vault, "warn");
    assert.match(json.checks.at(-1)!.fix!, "export VAULT_KEY=");
    assert.equal(statuses(json, ["gateway.tcp", "gateway.websocket", "gateway.challenge", "gateway.token"]), ["ok", "ok", "ok", "fail"]);
    assert.match(json.checks.find((c) => c.id === "gateway.token")!.detail, "GATEWAY_TOKEN is not set");
    const text = await doctor({ ...envFor(null, home), GATEWAY_URL: gw.url });
    assert.match(text.stdout, /warn\s+vault key/);
    assert.match(text.stdout, "Broken link: token accepted");
    assert.match(text.stdout, "Warning: vault key");
  });
});

t("no VAULT_KEY with the gateway off: exit 0, the vault key a warning", async () => {
  await withGateway({}, async (_gw, home) => {
    const json = await report(envFor(null, home, { GATEWAY_URL: "off" }));
    assert.is(json.code, 0, JSON.stringify(json.checks, null, 1));
    assert.is(json.ok, true);
    assert.is(json.status.vault, "warn");
    assert.equal(statuses(json, GATEWAY), Array(7).fill("disabled"));
  });
});

t("a wrong VAULT_KEY is 'wrong' (the vault's key check), the right one matches; a running server's vault is asked", async () => {
  await withGateway({}, async (gw, home) => {
    const workspace = join(home, "workspace");
    // The first start with a passphrase stores the vault's key check value.
    await withTestHost({ home, workspace, config: { vaultKey: RIGHT_KEY } }, async (h) => {
      assert.is((await h.json("/api/vault")).status, 200);
      const running = await report(envFor(gw, home, { VAULT_KEY: RIGHT_KEY }));
      assert.is(running.status.vault, "ok");
      assert.match(running.checks.find((c) => c.id === "vault")!.detail, "running server's vault is unlocked");
    });
    const wrong = await report(envFor(gw, home, { VAULT_KEY: "not-the-vault-passphrase" }));
    assert.is(wrong.code, 1);
    const vault = wrong.checks.find((c) => c.id === "vault")!;
    assert.is(vault.status, "fail");
    assert.match(vault.detail, "VAULT_KEY is wrong");
    assert.not.ok(wrong.stdout.includes("not-the-vault-passphrase"), "the key is never printed");
    assert.equal(statuses(wrong, GATEWAY), Array(7).fill("ok"), "the gateway diagnosis is complete");
    const right = await report(envFor(gw, home, { VAULT_KEY: RIGHT_KEY }));
    // The scaffolded crew is not registered with this gateway: that is the only broken link left.
    assert.equal(right.checks.filter((c) => c.status === "fail").map((c) => c.id), ["crew"], JSON.stringify(right.checks, null, 1));
    assert.is(right.status.vault, "ok");
    assert.match(right.checks.find((c) => c.id === "vault")!.detail, "matches the vault's key check");
  });
});

t("crew: agents of the organisation file missing from agents.list are listed with the register-missing fix", async () => {
  await withGateway({ agents: [{ id: "main" }, { id: "aide" }] }, async (gw, home) => {
    writeOrg(home);
    const json = await report(envFor(gw, home));
    assert.is(json.code, 1);
    const crew = json.checks.find((c) => c.id === "crew")!;
    assert.is(crew.status, "fail");
    assert.match(crew.detail, "1 of 2 agents");
    assert.match(crew.detail, /: scribe$/);
    assert.match(crew.fix!, "POST http://127.0.0.1:<PORT>/api/agents/register-missing");
    assert.match(crew.fix!, "muster approvals approve");
    assert.equal(statuses(json, GATEWAY), Array(7).fill("ok"));
    gw.setAgents([{ id: "main" }, { id: "aide" }, { id: "scribe" }]);
    const registered = await report(envFor(gw, home));
    assert.is(registered.code, 0, JSON.stringify(registered.checks, null, 1));
    assert.match(registered.checks.find((c) => c.id === "crew")!.detail, "all 2 agents");
  });
});

t("crew: the check is the agents plugin's contribution, so without that plugin doctor has none", async () => {
  await withGateway({ agents: [{ id: "main" }] }, async (gw, home) => {
    writeOrg(home);
    writeFileSync(join(home, "muster.config.json"), JSON.stringify({ disabledPlugins: ["agents"] }));
    const json = await report(envFor(gw, home));
    assert.not.ok(json.checks.some((c) => c.id === "crew"), JSON.stringify(json.checks, null, 1));
    assert.equal(statuses(json, GATEWAY), Array(7).fill("ok"));
    assert.is(json.checks.at(-1)!.id, "vault", "the vault key stays last");
  });
});

t.run();
