import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startTestHost, removeHome } from "../helpers/start-test-host.ts";
import { NODE_ENV, buildPlugin, installPluginKit, musterPluginsAdd, npmPack } from "../helpers/plugin-package.ts";

const t = suite("new-plugin scaffold");
const root = new URL("../..", import.meta.url).pathname;

t("scaffolds a working plugin and registers it", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "muster-scaffold-"));
  mkdirSync(join(tmp, "plugins"));
  mkdirSync(join(tmp, "node_modules", "@muster"), { recursive: true });
  symlinkSync(join(root, "core/plugin-api"), join(tmp, "node_modules", "@muster", "plugin"));
  writeFileSync(join(tmp, "plugins/built-in.ts"), 'import { a } from "./a/index.ts";\n\nexport const builtInPlugins: PluginDefinition[] = [a];\n');
  const run = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts/new-plugin.ts"), "release-notes", "--root", tmp], { encoding: "utf8", timeout: 30_000 });
  assert.is(run.status, 0, run.stderr);
  const builtIn = readFileSync(join(tmp, "plugins/built-in.ts"), "utf8");
  assert.match(builtIn, /import \{ releaseNotesPlugin \} from "\.\/release-notes\/index\.ts";/);
  assert.match(builtIn, /\[a, releaseNotesPlugin\];/);
  assert.match(readFileSync(join(tmp, "test/plugins/release-notes/release-notes.test.ts"), "utf8"), /startTestHost/);

  const { default: plugin } = await import(pathToFileURL(join(tmp, "plugins/release-notes/index.ts")).href);
  const h = await startTestHost({ extraPlugins: [plugin] });
  try {
    const res = await h.json("/api/release-notes", { method: "POST", body: { message: "v1" } });
    assert.equal(res.body, { ok: true, echo: "v1" });
  } finally {
    await h.stop();
    removeHome(h.home);
    removeHome(tmp);
  }
});

t("--standalone scaffolds a third-party package that builds (JS + .d.ts), passes its own test, and is served after muster plugins add", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "muster-scaffold-standalone-"));
  const project = join(tmp, "muster-plugin-release-notes");
  const home = join(tmp, "home");
  const run = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts/new-plugin.ts"), "--standalone", project, "release-notes"], { encoding: "utf8", timeout: 30_000 });
  assert.is(run.status, 0, run.stderr);
  const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
  assert.equal(pkg.muster, { plugin: true, host: "^1.0.0" });
  assert.equal(pkg.peerDependencies, { "@muster/plugin": "^1.0.0" });
  assert.is(pkg.scripts.prepack, "npm run build");
  assert.not.ok(existsSync(join(project, "plugins")), "nothing of the in-repo layout");

  installPluginKit(project, tmp);
  const build = buildPlugin(project);
  assert.is(build.status, 0, build.output);
  assert.ok(existsSync(join(project, "dist/index.d.ts")));
  const own = spawnSync(process.execPath, ["--test"], { cwd: project, encoding: "utf8", env: NODE_ENV, timeout: 30_000 });
  assert.is(own.status, 0, own.stdout + own.stderr);

  const add = musterPluginsAdd(npmPack(project, tmp, "--ignore-scripts"), home);
  assert.is(add.status, 0, add.stderr + add.stdout);
  const h = await startTestHost({ home, config: { plugins: ["muster-plugin-release-notes"] } });
  try {
    const res = await h.json("/api/release-notes", { method: "POST", body: { message: "v1" } });
    assert.equal(res.body, { ok: true, echo: "v1" });
  } finally {
    await h.stop();
    removeHome(tmp);
  }
});

t("--standalone refuses a directory that is not empty", () => {
  const run = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts/new-plugin.ts"), "--standalone", root, "release-notes"], { encoding: "utf8", timeout: 30_000 });
  assert.is(run.status, 1);
  assert.match(run.stderr, /not empty/);
});

t("refuses ids that are not kebab-case", () => {
  const run = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts/new-plugin.ts"), "Bad_Id", "--root", tmpdir()], { encoding: "utf8", timeout: 30_000 });
  assert.is(run.status, 2);
  assert.match(run.stderr, /kebab-case/);
});

t.run();
