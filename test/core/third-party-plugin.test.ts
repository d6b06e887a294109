import { suite } from "uvu";
import * as assert from "uvu/assert";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestHost, removeHome } from "../helpers/start-test-host.ts";
import { musterPluginsAdd, npmPack } from "../helpers/plugin-package.ts";

const t = suite("third-party plugins");
const root = new URL("../..", import.meta.url).pathname;

t("a packed plugin is installed with `muster plugins add`, enabled in muster.config.json, and served", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-3p-"));
  const packDir = mkdtempSync(join(tmpdir(), "muster-pack-"));
  const tarball = execFileSync("npm", ["pack", join(root, "test/fixtures/muster-plugin-hello"), "--pack-destination", packDir, "--silent"], { encoding: "utf8" }).trim().split("\n").pop()!;
  const add = spawnSync(process.execPath, [join(root, "core/main.ts"), "plugins", "add", join(packDir, tarball)], {
    env: { ...process.env, MUSTER_HOME: home, LOG_LEVEL: "silent" },
    encoding: "utf8",
    timeout: 120_000,
  });
  assert.is(add.status, 0, add.stderr + add.stdout);
  assert.match(add.stdout, /Enabled plugin "hello"/);
  assert.equal(JSON.parse(readFileSync(join(home, "muster.config.json"), "utf8")).plugins, ["muster-plugin-hello"]);
  assert.ok(existsSync(join(home, "node_modules/muster-plugin-hello/package.json")));

  const list = spawnSync(process.execPath, [join(root, "core/main.ts"), "plugins"], {
    env: { ...process.env, MUSTER_HOME: home, LOG_LEVEL: "silent" },
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.is(list.status, 0, list.stdout + list.stderr);
  assert.match(list.stdout, /hello\s+0\.1\.0\s+npm:muster-plugin-hello@0\.1\.0\s+loads/);
  assert.match(list.stdout, /work\s+1\.0\.0\s+built-in\s+loads/);

  // Its command is listed and runs like a built-in one; it is told where the running server is.
  const muster = (...args: string[]) => spawnSync(process.execPath, [join(root, "core/main.ts"), ...args], { env: { ...process.env, MUSTER_HOME: home, LOG_LEVEL: "silent" }, encoding: "utf8", timeout: 60_000 });
  const help = muster("--help");
  assert.is(help.status, 0, help.stderr);
  assert.match(help.stdout, /\n {2}hello \[<name>\] +greet someone from the command line\n/);
  assert.equal([muster("hello", "crew").stdout, muster("hello", "--help").status], ["hello crew; server: none\n", 0]);

  const h = await startTestHost({ home, config: { plugins: ["muster-plugin-hello"] } });
  try {
    assert.is(muster("hello").stdout, `hello world; server: ${h.url}\n`);
    const res = await h.json("/api/hello?name=crew");
    assert.is(res.status, 200);
    assert.equal(res.body, { ok: true, greeting: "hello crew", from: "hello" });
    const bad = await h.json("/api/hello?name=");
    assert.is(bad.status, 400);
    const plugins = (await h.json("/api/plugins")).body.plugins;
    const hello = plugins.find((p: { id: string }) => p.id === "hello");
    assert.equal({ ...hello }, { id: "hello", version: "0.1.0", source: "npm:muster-plugin-hello@0.1.0", paths: ["/api/hello"], dependsOn: [], state: "started" });
    assert.ok((await h.json("/api/openapi.json")).body.paths["/api/hello"]?.get);
  } finally {
    await h.stop();
    removeHome(home);
    removeHome(packDir);
  }
});

/** Packs test/fixtures/muster-plugin-hello as `version` (its definition says the same version) and returns the tarball's path. */
function packHello(version: string, into: string): string {
  const dir = mkdtempSync(join(tmpdir(), "muster-hello-src-"));
  cpSync(join(root, "test/fixtures/muster-plugin-hello"), dir, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ ...pkg, version }));
  const code = readFileSync(join(dir, "index.js"), "utf8");
  writeFileSync(join(dir, "index.js"), code.replace('version: "0.1.0"', `version: "${version}"`));
  const tarball = npmPack(dir, into);
  removeHome(dir);
  return tarball;
}

t("`muster plugins add` of a newer version replaces the installed one: listed once, the new version loads", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-3p-"));
  const packDir = mkdtempSync(join(tmpdir(), "muster-pack-"));
  const add = (tarball: string) => musterPluginsAdd(tarball, home);
  try {
    const v1 = add(packHello("0.1.0", packDir));
    assert.is(v1.status, 0, v1.stderr + v1.stdout);
    const v2 = add(packHello("0.2.0", packDir));
    assert.is(v2.status, 0, v2.stderr + v2.stdout);
    assert.match(v2.stdout, /Enabled plugin "hello" \(npm:muster-plugin-hello@0\.2\.0\)/);
    assert.equal(JSON.parse(readFileSync(join(home, "muster.config.json"), "utf8")).plugins, ["muster-plugin-hello"]);
    const again = add(packHello("0.2.0", packDir));
    assert.is(again.status, 0, again.stderr + again.stdout);

    const h = await startTestHost({ home, config: { plugins: ["muster-plugin-hello"] } });
    try {
      const hello = (await h.json("/api/plugins")).body.plugins.find((p) => p.id === "hello");
      assert.is(hello?.version, "0.2.0");
      assert.is(hello?.source, "npm:muster-plugin-hello@0.2.0");
    } finally {
      await h.stop();
    }
  } finally {
    removeHome(home);
    removeHome(packDir);
  }
});

t("a configured plugin that is not installed, or not a Muster plugin, stops start-up with a clear error", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-3p-"));
  for (const [name, pattern] of [["muster-plugin-missing", /not installed/], ["uvu", /not a Muster plugin/], ["../etc", /not an npm package name/]] as const) {
    try {
      const h = await startTestHost({ home, config: { plugins: [name] } });
      await h.stop();
      assert.unreachable(name);
    } catch (error) {
      assert.is((error as { code?: string }).code, "PLUGIN_INVALID", name);
      assert.match((error as Error).message, pattern);
    }
  }
  removeHome(home);
});

t.run();
