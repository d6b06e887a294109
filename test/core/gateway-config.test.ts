// The gateway settings of the configuration: defaults, `off`, the environment over the file,
// and refused values named in CONFIG_INVALID.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MusterError } from "@muster/plugin";
import { loadConfig } from "../../core/internal/config.ts";
import { removeHome } from "../helpers/start-test-host.ts";

const t = suite("gateway configuration");
const homes: string[] = [];
const home = () => {
  const dir = mkdtempSync(join(tmpdir(), "muster-gwcfg-"));
  homes.push(dir);
  return dir;
};

t.after(() => homes.forEach(removeHome));

t("defaults: loopback gateway, the three operator scopes, 30 s calls, device identity auto, the reference client's clocks", () => {
  const c = loadConfig({ MUSTER_HOME: home() });
  assert.is(c.gatewayUrl, "ws://127.0.0.1:18789");
  assert.is(c.gatewayToken, null);
  assert.equal(c.gatewayScopes, ["operator.read", "operator.write", "operator.admin"]);
  assert.is(c.gatewayRequestTimeoutMs, 30_000);
  assert.is(c.gatewayDeviceIdentity, "auto");
  assert.is(c.gatewayTimings.backoffInitialMs, 1_000);
  assert.is(c.gatewayTimings.backoffMaxMs, 30_000);
  assert.is(c.gatewayTimings.unauthorizedRetryMs, 60_000);
});

t("the environment sets each, over muster.config.json; GATEWAY_URL=off is accepted", () => {
  const dir = home();
  writeFileSync(join(dir, "muster.config.json"), JSON.stringify({ gatewayUrl: "ws://10.0.0.5:18789", gatewayScopes: ["operator.read"], gatewayRequestTimeoutMs: 1_000, gatewayDeviceIdentity: "off" }));
  const fromFile = loadConfig({ MUSTER_HOME: dir });
  assert.equal([fromFile.gatewayUrl, fromFile.gatewayScopes, fromFile.gatewayRequestTimeoutMs, fromFile.gatewayDeviceIdentity], ["ws://10.0.0.5:18789", ["operator.read"], 1_000, "off"]);
  const fromEnv = loadConfig({
    MUSTER_HOME: dir,
    GATEWAY_URL: "off",
    GATEWAY_TOKEN: "tok",
    GATEWAY_SCOPES: "operator.read, operator.write",
    GATEWAY_REQUEST_TIMEOUT_MS: "2500",
    GATEWAY_DEVICE_IDENTITY: "on",
  });
  assert.equal(
    [fromEnv.gatewayUrl, fromEnv.gatewayToken, fromEnv.gatewayScopes, fromEnv.gatewayRequestTimeoutMs, fromEnv.gatewayDeviceIdentity],
    ["off", "tok", ["operator.read", "operator.write"], 2_500, "on"],
  );
  assert.ok(loadConfig({ MUSTER_HOME: dir, GATEWAY_URL: "wss://gateway.example:443" }));
});

t("test and embedder overrides of the clocks merge over the defaults", () => {
  const c = loadConfig({ MUSTER_HOME: home() }, { gatewayTimings: { backoffInitialMs: 5 } });
  assert.is(c.gatewayTimings.backoffInitialMs, 5);
  assert.is(c.gatewayTimings.backoffMaxMs, 30_000);
});

t("refused values are named", () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ GATEWAY_URL: "http://127.0.0.1:18789" }, /GATEWAY_URL: must be a ws:\/\/ or wss:\/\/ URL, or off/],
    [{ GATEWAY_URL: "ws://" }, /GATEWAY_URL/],
    [{ GATEWAY_URL: "OFF " }, /GATEWAY_URL/],
    [{ GATEWAY_SCOPES: "operator.read,admin" }, /GATEWAY_SCOPES/],
    [{ GATEWAY_REQUEST_TIMEOUT_MS: "soon" }, /GATEWAY_REQUEST_TIMEOUT_MS/],
    [{ GATEWAY_REQUEST_TIMEOUT_MS: "0" }, /GATEWAY_REQUEST_TIMEOUT_MS/],
    [{ GATEWAY_DEVICE_IDENTITY: "yes" }, /GATEWAY_DEVICE_IDENTITY/],
    [{ GATEWAY_TOKEN: "" }, /GATEWAY_TOKEN/],
  ];
  for (const [env, pattern] of cases) {
    try {
      loadConfig({ MUSTER_HOME: home(), ...env });
      assert.unreachable(JSON.stringify(env));
    } catch (error) {
      assert.instance(error, MusterError, JSON.stringify(env));
      assert.is((error as MusterError).code, "CONFIG_INVALID");
      assert.match((error as Error).message, pattern);
    }
  }
  const dir = home();
  writeFileSync(join(dir, "muster.config.json"), JSON.stringify({ gatewayUrl: "tcp://x" }));
  assert.throws(() => loadConfig({ MUSTER_HOME: dir }), /gatewayUrl/);
});

t.run();
