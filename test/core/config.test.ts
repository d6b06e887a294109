import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MusterError } from "@muster/plugin";
import { loadConfig } from "../../core/internal/config.ts";

const t = suite("config");
const home = () => mkdtempSync(join(tmpdir(), "muster-cfg-"));

t("defaults", () => {
  const c = loadConfig({ MUSTER_HOME: home() });
  assert.is(c.port, 3333);
  assert.is(c.host, "127.0.0.1");
  assert.is(c.gatewayUrl, "ws://127.0.0.1:18789");
  assert.is(c.logLevel, "info");
  assert.is(c.apiToken, null);
  assert.ok(Object.isFrozen(c));
});

t("a bad variable is named in the error", () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: "eighty" }, /PORT/],
    [{ PORT: "70000" }, /PORT/],
    [{ LOG_LEVEL: "loud" }, /LOG_LEVEL/],
    [{ GATEWAY_URL: "http://x" }, /GATEWAY_URL/],
    [{ MUSTER_ALLOWED_ORIGINS: "http://ok.example,not an origin" }, /MUSTER_ALLOWED_ORIGINS/],
    [{ MUSTER_API_TOKEN: "short" }, /MUSTER_API_TOKEN/],
  ];
  for (const [env, pattern] of cases) {
    try {
      loadConfig({ MUSTER_HOME: home(), ...env });
      assert.unreachable(JSON.stringify(env));
    } catch (error) {
      assert.instance(error, MusterError);
      assert.is((error as MusterError).code, "CONFIG_INVALID");
      assert.match((error as Error).message, pattern);
    }
  }
});

t("a non-loopback bind needs MUSTER_API_TOKEN", () => {
  assert.throws(() => loadConfig({ MUSTER_HOME: home(), HOST: "0.0.0.0" }), /MUSTER_API_TOKEN/);
  const c = loadConfig({ MUSTER_HOME: home(), HOST: "0.0.0.0", MUSTER_API_TOKEN: "a-long-enough-token-123" });
  assert.is(c.apiToken, "a-long-enough-token-123");
  assert.not.throws(() => loadConfig({ MUSTER_HOME: home(), HOST: "::1" }));
});

t("muster.config.json is read, validated, and the environment wins", () => {
  const dir = home();
  writeFileSync(join(dir, "muster.config.json"), JSON.stringify({ port: 4000, logLevel: "warn", plugins: ["muster-plugin-x"], config: { stream: { pingIntervalMs: 5 } } }));
  const c = loadConfig({ MUSTER_HOME: dir, LOG_LEVEL: "error" });
  assert.is(c.port, 4000);
  assert.is(c.logLevel, "error");
  assert.equal(c.plugins, ["muster-plugin-x"]);
  assert.equal(c.pluginConfig, { stream: { pingIntervalMs: 5 } });
  writeFileSync(join(dir, "muster.config.json"), "{ nope");
  assert.throws(() => loadConfig({ MUSTER_HOME: dir }), /not valid JSON/);
  writeFileSync(join(dir, "muster.config.json"), JSON.stringify({ prot: 1 }));
  assert.throws(() => loadConfig({ MUSTER_HOME: dir }), /prot/);
});

t.run();
