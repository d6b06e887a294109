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

/** CONFIG_INVALID's message for a configuration that is refused. */
function refusal(env: Record<string, string>, file?: unknown): string {
  const dir = home();
  if (file !== undefined) writeFileSync(join(dir, "muster.config.json"), JSON.stringify(file));
  try {
    loadConfig({ MUSTER_HOME: dir, ...env });
  } catch (error) {
    assert.instance(error, MusterError);
    assert.is((error as MusterError).code, "CONFIG_INVALID");
    return (error as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify({ env, file })}`);
}

const linksOf = (c: ReturnType<typeof loadConfig>) => c.gateways.map((g) => [g.name, g.url, g.token]);

t("one gateway is one link named default, with the token whole (a comma in it included)", () => {
  const c = loadConfig({ MUSTER_HOME: home(), GATEWAY_URL: "ws://127.0.0.1:1", GATEWAY_TOKEN: "a,b" });
  assert.equal(linksOf(c), [["default", "ws://127.0.0.1:1", "a,b"]]);
  assert.equal([c.gatewayUrl, c.gatewayToken], ["ws://127.0.0.1:1", "a,b"]);
  assert.equal(linksOf(loadConfig({ MUSTER_HOME: home() })), [["default", "ws://127.0.0.1:18789", null]]);
});

t("GATEWAY_URL lists several gateways: unnamed by position, name=url named; tokens by position, GATEWAY_TOKEN_<NAME> over them", () => {
  const c = loadConfig({ MUSTER_HOME: home(), GATEWAY_URL: "ws://a:1, ws://b:2", GATEWAY_TOKEN: "ta,tb" });
  assert.equal(linksOf(c), [["default", "ws://a:1", "ta"], ["gateway-2", "ws://b:2", "tb"]]);
  assert.equal([c.gatewayUrl, c.gatewayToken], ["ws://a:1", "ta"], "the first link is the default one");
  const named = loadConfig({ MUSTER_HOME: home(), GATEWAY_URL: "east=ws://a:1,west-2=wss://b:2", GATEWAY_TOKEN: "ta,", GATEWAY_TOKEN_WEST_2: "tw", GATEWAY_SCOPES: "operator.read" });
  assert.equal(linksOf(named), [["east", "ws://a:1", "ta"], ["west-2", "wss://b:2", "tw"]]);
  assert.equal(named.gateways[1]!.scopes, ["operator.read"]);
  const byName = loadConfig({ MUSTER_HOME: home(), GATEWAY_URL: "east=ws://a:1,west=ws://b:2", GATEWAY_TOKEN_EAST: "te" });
  assert.equal(linksOf(byName), [["east", "ws://a:1", "te"], ["west", "ws://b:2", null]]);
});

t("muster.config.json's gateways, each with its own scopes and device identity; GATEWAY_URL wins over it", () => {
  const dir = home();
  writeFileSync(join(dir, "muster.config.json"), JSON.stringify({ gateways: [{ name: "east", url: "ws://a:1" }, { name: "far", url: "wss://far:443", scopes: ["operator.read"], deviceIdentity: "on" }] }));
  const c = loadConfig({ MUSTER_HOME: dir, GATEWAY_TOKEN_FAR: "tf" });
  assert.equal(linksOf(c), [["east", "ws://a:1", null], ["far", "wss://far:443", "tf"]]);
  assert.equal([c.gateways[1]!.scopes, c.gateways[1]!.deviceIdentity, c.gateways[0]!.deviceIdentity], [["operator.read"], "on", "auto"]);
  assert.equal(linksOf(loadConfig({ MUSTER_HOME: dir, GATEWAY_URL: "ws://c:3" })), [["default", "ws://c:3", null]]);
});

t("several gateways refused at start with the reason: repeated names, a bad entry, a token count that does not match, a token in the file", () => {
  assert.match(refusal({ GATEWAY_URL: "a=ws://a:1,a=ws://b:2" }), /GATEWAY_URL: the gateway name "a" is used twice/);
  assert.match(refusal({ GATEWAY_URL: "ws://a:1,http://b:2" }), /GATEWAY_URL: "http:\/\/b:2" \(gateway "gateway-2"\) must be a ws:\/\/ or wss:\/\/ URL/);
  assert.match(refusal({ GATEWAY_URL: "ws://a:1,,ws://b:2" }), /an entry of the comma-separated list is empty/);
  assert.match(refusal({ GATEWAY_URL: "Bad_Name=ws://a:1,ws://b:2" }), /gateway name "Bad_Name" must be a lower-case name/);
  assert.match(refusal({ GATEWAY_URL: "ws://a:1,ws://b:2", GATEWAY_TOKEN: "only-one" }), /GATEWAY_TOKEN lists 1 token\(s\) for 2 gateways \(default, gateway-2\).*GATEWAY_TOKEN_DEFAULT \/ GATEWAY_TOKEN_GATEWAY_2/);
  assert.match(refusal({}, { gateways: [{ name: "x", url: "ws://a:1" }, { name: "x", url: "ws://b:2" }] }), /muster\.config\.json: gateways: the gateway name "x" is used twice/);
  assert.match(refusal({}, { gateways: [{ name: "x", url: "ws://a:1", token: "secret" }] }), /gateways\.0.*token/);
  assert.match(refusal({}, { gateways: [] }), /gateways/);
});

t.run();
