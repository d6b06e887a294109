// `muster doctor` run as a child process (as a user runs it) against the fake gateway: the
// checks in order, each broken link named with its fix, dependent ones skipped, --json,
// exit codes, and a running server left alone.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { removeHome, withTestHost } from "../helpers/start-test-host.ts";
import { doctor, envFor, GATEWAY, ORDER, report, statuses, TOKEN, withGateway } from "./doctor-run.ts";

const t = suite("muster doctor");

t("green: every check ok in order, exit 0; the text names each check and prints no token", async () => {
  await withGateway({}, async (gw, home) => {
    const json = await report(envFor(gw, home));
    assert.is(json.code, 0, json.stdout + json.stderr);
    assert.is(json.ok, true);
    assert.equal(json.checks.map((c) => c.id), ORDER);
    assert.ok(json.checks.every((c) => c.status === "ok"), JSON.stringify(json.checks, null, 1));
    assert.match(json.checks.find((c) => c.id === "gateway.agents")!.detail, "1 agent: main");
    assert.match(json.checks.find((c) => c.id === "database")!.detail, "does not exist yet");
    const text = await doctor(envFor(gw, home));
    assert.is(text.code, 0);
    for (const name of ["config", "MUSTER_HOME writable", "database and migrations", "gateway TCP reachable", "WebSocket upgrade", "connect.challenge", "token accepted", "scopes granted", "protocol version", "agents.list"]) {
      assert.match(text.stdout, name);
    }
    assert.match(text.stdout, "All checks passed.");
    assert.not.ok((text.stdout + text.stderr + json.stdout).includes(TOKEN));
    // The checks asked for the scopes the server asks for, as the server's client does.
    assert.equal(gw.requests("connect")[0].params.scopes, ["operator.read", "operator.write", "operator.admin"]);
  });
});

t("gateway down: the TCP check fails naming how to start it; everything after is skipped; exit 1", async () => {
  await withGateway({}, async (gw, home) => {
    await gw.stop();
    const json = await report(envFor(gw, home));
    assert.is(json.code, 1);
    assert.is(json.ok, false);
    const tcp = json.checks.find((c) => c.id === "gateway.tcp")!;
    assert.is(tcp.status, "fail");
    assert.match(tcp.detail, "connection refused");
    assert.match(tcp.fix!, "openclaw gateway run");
    assert.equal(statuses(json, GATEWAY.slice(1)), Array(6).fill("skipped"));
    assert.equal(statuses(json, ["config", "home", "database", "workspace", "vault"]), Array(5).fill("ok"));
    assert.is(json.status.crew, "skipped");
    const text = await doctor(envFor(gw, home));
    assert.is(text.code, 1);
    assert.match(text.stdout, /FAIL\s+gateway TCP reachable/);
    assert.match(text.stdout, "Broken link: gateway TCP reachable — start the gateway: openclaw gateway run");
    assert.match(text.stdout, /skipped\s+agents\.list/);
  });
});

t("wrong token: 'token accepted' fails with the GATEWAY_TOKEN fix; the token is not printed", async () => {
  await withGateway({}, async (gw, home) => {
    const json = await report(envFor(gw, home, { GATEWAY_TOKEN: "wrong-token-abcdefgh" }));
    assert.is(json.code, 1);
    assert.equal(statuses(json, ORDER.slice(0, 7)), Array(7).fill("ok"));
    const token = json.checks.find((c) => c.id === "gateway.token")!;
    assert.is(token.status, "fail");
    assert.match(token.detail, "AUTH_TOKEN_MISMATCH");
    assert.match(token.fix!, "set GATEWAY_TOKEN to the gateway's token (gateway.auth.token in openclaw.json)");
    assert.equal(statuses(json, ["gateway.scopes", "gateway.protocol", "gateway.agents", "crew"]), ["skipped", "skipped", "skipped", "skipped"]);
    assert.not.ok(json.stdout.includes("wrong-token-abcdefgh"));
  });
});

t("no GATEWAY_TOKEN: 'token accepted' fails saying it is not set", async () => {
  await withGateway({}, async (gw, home) => {
    const json = await report({ ...envFor(null, home), GATEWAY_URL: gw.url, VAULT_KEY: "a-vault-passphrase-123" });
    assert.is(json.status["gateway.token"], "fail");
    assert.match(json.checks.find((c) => c.id === "gateway.token")!.detail, "GATEWAY_TOKEN is not set");
  });
});

t("scopes not granted (a remote gateway without a paired device): 'scopes granted' fails with the pairing fix", async () => {
  await withGateway({ requireDevice: true }, async (gw, home) => {
    const json = await report(envFor(gw, home, { GATEWAY_DEVICE_IDENTITY: "off" }));
    assert.is(json.code, 1);
    const scopes = json.checks.find((c) => c.id === "gateway.scopes")!;
    assert.is(scopes.status, "fail");
    assert.match(scopes.detail, "granted []");
    assert.match(scopes.fix!, "GATEWAY_DEVICE_IDENTITY=on");
    // With the device identity the same gateway grants them.
    const paired = await report(envFor(gw, home, { GATEWAY_DEVICE_IDENTITY: "on" }));
    assert.is(paired.code, 0, JSON.stringify(paired.checks, null, 1));
  });
});

t("protocol mismatch: 'protocol version' is the broken link", async () => {
  await withGateway({ protocol: 5 }, async (gw, home) => {
    const json = await report(envFor(gw, home));
    assert.is(json.code, 1);
    assert.is(json.status["gateway.protocol"], "fail");
    assert.match(json.checks.find((c) => c.id === "gateway.protocol")!.detail, "speaks protocol 5");
    assert.is(json.checks.find((c) => c.status === "fail")!.id, "gateway.protocol");
  });
});

t("a gateway still starting (UNAVAILABLE for the first connects) is waited for", async () => {
  await withGateway({ unavailableConnects: 2, retryAfterMs: 50 }, async (gw, home) => {
    const json = await report(envFor(gw, home));
    assert.is(json.code, 0, JSON.stringify(json.checks, null, 1));
    assert.is(gw.connectAttempts, 3);
  });
});

t("something else on the gateway's port: the WebSocket upgrade is the broken link", async () => {
  const server = createServer((_req, res) => res.writeHead(404).end("not a gateway"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const home = mkdtempSync(join(tmpdir(), "muster-doctor-"));
  try {
    const json = await report(envFor(null, home, { GATEWAY_URL: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, GATEWAY_TOKEN: TOKEN }));
    assert.is(json.status["gateway.tcp"], "ok");
    assert.is(json.status["gateway.websocket"], "fail");
    assert.match(json.checks.find((c) => c.id === "gateway.websocket")!.detail, "HTTP 404");
  } finally {
    server.close();
    removeHome(home);
  }
});

t("GATEWAY_URL=off: the gateway checks say disabled and do not fail", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-doctor-"));
  try {
    const json = await report(envFor(null, home, { GATEWAY_URL: "off", VAULT_KEY: "a-vault-passphrase-123" }));
    assert.is(json.code, 0, JSON.stringify(json.checks, null, 1));
    assert.equal(statuses(json, GATEWAY), Array(7).fill("disabled"));
    assert.is(json.status.crew, "skipped");
  } finally {
    removeHome(home);
  }
});

t("a bad configuration fails the first check and skips the rest", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-doctor-"));
  try {
    const json = await report(envFor(null, home, { PORT: "not-a-port", GATEWAY_URL: "off" }));
    assert.is(json.code, 1);
    assert.is(json.status.config, "fail");
    assert.match(json.checks[0]!.detail, "PORT");
    assert.ok(json.checks.slice(1).every((c) => c.status === "skipped"));
  } finally {
    removeHome(home);
  }
});

t("database: checked through a running server's health, never opened beside it; read-only with integrity and migrations when stopped", async () => {
  await withGateway({}, async (gw, home) => {
    const workspace = join(home, "workspace");
    await withTestHost({ home, workspace }, async (h) => {
      const json = await report(envFor(gw, home));
      const db = json.checks.find((c) => c.id === "database")!;
      assert.is(db.status, "ok");
      assert.match(db.detail, "served by the running server");
      // The server still works afterwards.
      assert.is((await h.json("/api/health")).body.database, "ok");
    });
    const json = await report(envFor(gw, home));
    const db = json.checks.find((c) => c.id === "database")!;
    assert.is(db.status, "ok", db.detail);
    assert.match(db.detail, /integrity ok, \d+ migrations applied/);
    assert.not.match(db.detail, "pending");
  });
});

t("usage: an unknown flag or an argument exits 2; --help exits 0", async () => {
  const bad = await doctor({ GATEWAY_URL: "off" }, ["--bogus"]);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, "Usage: muster doctor");
  const extra = await doctor({ GATEWAY_URL: "off" }, ["extra"]);
  assert.is(extra.code, 2);
  const help = await doctor({}, ["--help"]);
  assert.is(help.code, 0);
  assert.match(help.stdout, "Usage: muster doctor [--json]");
});

t.run();
