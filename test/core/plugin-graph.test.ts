import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHost } from "../../core/host.ts";
import { definePlugin, MusterError, type PluginDefinition } from "@muster/plugin";

const t = suite("plugin graph");

let ran: string[] = [];
const plugin = (id: string, extra: Partial<PluginDefinition> = {}) =>
  definePlugin({ id, version: "1.0.0", host: "^1.0.0", register: () => void ran.push(`${id}.register`), onStart: () => void ran.push(`${id}.start`), ...extra });

async function startWith(plugins: PluginDefinition[]) {
  ran = [];
  const home = mkdtempSync(join(tmpdir(), "muster-graph-"));
  const host = createHost({ env: {}, plugins, config: { port: 0, home, logLevel: "silent" } });
  try {
    await host.start();
    return { host, error: null as MusterError | null };
  } catch (error) {
    await host.stop();
    return { host, error: error as MusterError };
  }
}

async function expectError(plugins: PluginDefinition[], code: string) {
  const { error, host } = await startWith(plugins);
  if (!error) await host.stop();
  assert.instance(error, MusterError, code);
  assert.is(error!.code, code);
  assert.equal(ran, [], "no plugin code ran");
}

t("duplicate ids are refused before any plugin code runs", () => expectError([plugin("a"), plugin("a")], "PLUGIN_DUPLICATE_ID"));
t("incompatible host range", () => expectError([plugin("a", { host: "^2.0.0" })], "PLUGIN_HOST_INCOMPATIBLE"));
t("missing dependency", () => expectError([plugin("a", { dependsOn: ["ghost"] })], "PLUGIN_MISSING_DEPENDENCY"));
t("dependency cycle", () =>
  expectError([plugin("a", { dependsOn: ["c"] }), plugin("b", { dependsOn: ["a"] }), plugin("c", { dependsOn: ["b"] })], "PLUGIN_DEPENDENCY_CYCLE"));
t("overlapping paths", () =>
  expectError([plugin("a", { paths: ["/api/memory"] }), plugin("b", { paths: ["/api/memory/rag"] })], "PLUGIN_PATH_OVERLAP"));
t("the host's own paths cannot be claimed", () =>
  expectError([plugin("a", { paths: ["/api/auth/login"] })], "PLUGIN_PATH_OVERLAP"));
t("invalid id and paths", async () => {
  await expectError([plugin("Not_Kebab")], "PLUGIN_INVALID");
  await expectError([plugin("a", { paths: ["health"] })], "PLUGIN_INVALID");
  await expectError([plugin("a", { paths: ["/api/notes/"] })], "PLUGIN_INVALID");
  await expectError([plugin("a", { paths: ["/api//notes"] })], "PLUGIN_INVALID");
  await expectError([plugin("a", { paths: ["/API/notes"] })], "PLUGIN_INVALID");
  await expectError([plugin("a", { version: "one" })], "PLUGIN_INVALID");
});

t("plugins start in dependency order, stable otherwise; optional deps order when present", async () => {
  const { host, error } = await startWith([
    plugin("zeta", { dependsOn: ["alpha"] }),
    plugin("beta"),
    plugin("alpha", { optionalDependsOn: ["beta", "absent"] }),
  ]);
  assert.is(error, null);
  assert.equal(
    ran.filter((r) => r.endsWith(".start")),
    ["beta.start", "alpha.start", "zeta.start"],
  );
  const listed = (await (await fetch(`${host.url}/api/plugins`)).json()) as { plugins: { id: string; state: string }[] };
  assert.equal(listed.plugins.map((p) => p.id), ["beta", "alpha", "zeta"]);
  assert.is(listed.plugins[0]?.state, "started");
  await host.stop();
});

t("prefixes that merely share characters do not overlap", async () => {
  const { host, error } = await startWith([plugin("a", { paths: ["/api/board"] }), plugin("b", { paths: ["/api/boards"] })]);
  assert.is(error, null);
  await host.stop();
});

t("a plugin may serve the root page and a top-level name, never a host path", async () => {
  await expectError([plugin("a", { paths: ["/login"] })], "PLUGIN_PATH_OVERLAP");
  const { host, error } = await startWith([
    plugin("page", { paths: ["/", "/page"], routes: (router) => void router.get("/", { summary: "root" }, () => ({ root: true })).get("/page/x", { summary: "x" }, () => ({ x: true })) }),
  ]);
  assert.is(error, null);
  try {
    assert.equal(await (await fetch(`${host.url}/`)).json(), { root: true });
    assert.equal(await (await fetch(`${host.url}/page/x`)).json(), { x: true });
  } finally {
    await host.stop();
  }
});

t("a route outside the plugin's paths is refused", async () => {
  const { error, host } = await startWith([
    plugin("a", { paths: ["/api/a"], routes: (router) => void router.get("/api/b", { summary: "x" }, () => ({})) }),
  ]);
  if (!error) await host.stop();
  assert.ok(error);
  assert.is((error as unknown as { code: string }).code, "PLUGIN_ROUTE_OUTSIDE_PATHS");
});

t.run();
