import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startTestHost, removeHome } from "../helpers/start-test-host.ts";
import { NODE_ENV, buildPlugin, installPluginKit, musterPluginsAdd, npmPack } from "../helpers/plugin-package.ts";
import { scaled } from "../helpers/time-scale.ts";

const t = suite("new-plugin scaffold");
const root = new URL("../..", import.meta.url).pathname;

t("scaffolds a working plugin and registers it", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "muster-scaffold-"));
  mkdirSync(join(tmp, "plugins"));
  mkdirSync(join(tmp, "node_modules", "@muster"), { recursive: true });
  symlinkSync(join(root, "core/plugin-api"), join(tmp, "node_modules", "@muster", "plugin"));
  writeFileSync(join(tmp, "plugins/built-in-loaders.ts"), 'export const builtInPluginLoaders: (() => Promise<PluginDefinition>)[] = [\n  () => import("./a/index.ts").then((m) => m.aPlugin),\n];\n\nexport async function loadBuiltInPlugins() {}\n');
  const run = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts/new-plugin.ts"), "release-notes", "--root", tmp], { encoding: "utf8", timeout: scaled(30_000) });
  assert.is(run.status, 0, run.stderr);
  const builtIn = readFileSync(join(tmp, "plugins/built-in-loaders.ts"), "utf8");
  assert.match(builtIn, /m\.aPlugin\),\n  \(\) => import\("\.\/release-notes\/index\.ts"\)\.then\(\(m\) => m\.releaseNotesPlugin\),\n\];/);
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
  const run = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts/new-plugin.ts"), "--standalone", project, "release-notes"], { encoding: "utf8", timeout: scaled(30_000) });
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
  const own = spawnSync(process.execPath, ["--test"], { cwd: project, encoding: "utf8", env: NODE_ENV, timeout: scaled(30_000) });
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

t("--standalone: the commands it prints (npm install && npm test) install the packed kit and pass, with no @muster/plugin on the registry", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "muster-scaffold-printed-"));
  const project = join(tmp, "muster-plugin-release-notes");
  try {
    const run = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts/new-plugin.ts"), "--standalone", project, "release-notes"], { encoding: "utf8", timeout: scaled(120_000) });
    assert.is(run.status, 0, run.stderr);
    const next = /^Next: cd (\S+) && (npm install) && (npm test)$/m.exec(run.stdout);
    assert.ok(next, run.stdout);
    assert.is(next![1], project);
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    assert.match(pkg.devDependencies["@muster/plugin"], /^file:vendor\/muster-plugin-1\.0\.0\.tgz$/);
    assert.ok(existsSync(join(project, "vendor/muster-plugin-1.0.0.tgz")));
    assert.not.match(readFileSync(join(project, "README.md"), "utf8"), /github\.com\/\)/, "no placeholder link");

    // As the user's shell runs them: the system's npm and node (this checkout's pinned Node is
    // not on PATH), the normal npm cache (--prefer-offline only avoids re-fetching what it holds).
    const userPath = (process.env.PATH ?? "").split(":").filter((dir) => !dir.startsWith(root)).join(":");
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: userPath, npm_config_update_notifier: "false" };
    for (const key of Object.keys(env)) if (/^npm_(lifecycle|package|config_(?!cache$))/i.test(key)) delete env[key];
    const install = spawnSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: project, env, encoding: "utf8", timeout: scaled(300_000) });
    assert.is(install.status, 0, install.stdout + install.stderr);
    const test = spawnSync("npm", ["test"], { cwd: project, env, encoding: "utf8", timeout: scaled(120_000) });
    assert.is(test.status, 0, test.stdout + test.stderr);
    assert.match(test.stdout, /# pass 2/);
  } finally {
    removeHome(tmp);
  }
});

t("--standalone refuses a directory that is not empty", () => {
  const run = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts/new-plugin.ts"), "--standalone", root, "release-notes"], { encoding: "utf8", timeout: scaled(30_000) });
  assert.is(run.status, 1);
  assert.match(run.stderr, /not empty/);
});

t("refuses ids that are not kebab-case", () => {
  const run = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts/new-plugin.ts"), "Bad_Id", "--root", tmpdir()], { encoding: "utf8", timeout: scaled(30_000) });
  assert.is(run.status, 2);
  assert.match(run.stderr, /kebab-case/);
});

t.run();
