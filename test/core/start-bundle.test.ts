// The start-up bundle (core/start/): `muster start` runs it while it matches the sources,
// never when it does not, and a third-party plugin gets the bundle's own @muster/plugin.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startServer, stopServer } from "../../scripts/bench/processes.ts";
import { freshBundle } from "../../core/start/bundle-manifest.js";
import { builtinShim } from "../../core/start/build-bundle.ts";
import { removeHome } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";

const t = suite("start-up bundle");
const root = new URL("../..", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "muster-bundle-"));
const built = join(work, "built");

/** `muster start` (core/entry.js, as `npm start` runs it) on a new home; its log says which code runs. */
async function start(env: Record<string, string>, home = mkdtempSync(join(tmpdir(), "muster-bundle-home-"))) {
  const port = await freePort();
  const server = await startServer({ name: "muster", args: ["core/entry.js", "start"], env: { PORT: String(port), MUSTER_HOME: home, GATEWAY_URL: "off", LOG_LEVEL: "info", ...env }, port, cwd: root, timeoutMs: 120_000 });
  const started = await waitUntil(() => (/"msg":"muster started"/.test(server.output()) ? server.output() : null), { timeoutMs: 10_000, label: "the start line" });
  return { server, home, url: `http://127.0.0.1:${port}`, bundled: /"startBundle":true/.test(started) };
}

t.before(() => {
  const build = spawnSync(process.execPath, [join(root, "core/start/build-bundle.ts"), `--out=${built}`], { encoding: "utf8", timeout: 300_000 });
  assert.is(build.status, 0, build.stdout + build.stderr);
});

t.after(() => rmSync(work, { recursive: true, force: true }));

t("a bundle that matches the sources runs, answers, and serves a third-party plugin through the bundle's @muster/plugin", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-bundle-home-"));
  // The plugin as `muster plugins add` leaves it: in the home's node_modules, enabled in the config.
  mkdirSync(join(home, "node_modules"), { recursive: true });
  cpSync(join(root, "test/fixtures/muster-plugin-hello"), join(home, "node_modules/muster-plugin-hello"), { recursive: true });
  writeFileSync(join(home, "muster.config.json"), JSON.stringify({ plugins: ["muster-plugin-hello"] }));
  const s = await start({ MUSTER_START_BUNDLE_DIR: built, MUSTER_START_BUNDLE: "no-rebuild" }, home);
  try {
    assert.ok(s.bundled, `the bundle ran:\n${s.server.output()}`);
    const hello = await fetch(`${s.url}/api/hello?name=crew`);
    assert.is(hello.status, 200);
    assert.equal(await hello.json(), { ok: true, greeting: "hello crew", from: "hello" });
    // A validation error from the plugin's schema goes through the host's error boundary: one copy of the kit.
    const bad = await fetch(`${s.url}/api/hello?name=`);
    assert.is(bad.status, 400);
    assert.is(((await bad.json()) as { error: { code: string } }).error.code, "VALIDATION_FAILED");
    const task = await fetch(`${s.url}/api/tasks`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "from the bundle" }) });
    assert.is(task.status, 201);
  } finally {
    await stopServer(s.server.child);
    removeHome(s.home);
  }
});

t("the bundle declares its chunks ES modules (Node then parses each once), and a bundle built before that is stale", () => {
  assert.equal(JSON.parse(readFileSync(join(built, "package.json"), "utf8")), { type: "module" });
  assert.ok(freshBundle(built), "the new bundle matches");
  const older = join(work, "older-layout");
  cpSync(built, older, { recursive: true });
  rmSync(join(older, "package.json"));
  const manifest = JSON.parse(readFileSync(join(older, "manifest.json"), "utf8")) as Record<string, unknown>;
  delete manifest.layout;
  writeFileSync(join(older, "manifest.json"), JSON.stringify(manifest));
  assert.is(freshBundle(older), null, "a bundle of the older layout is rebuilt, whatever its inputs say");
});

t("every chunk is ASCII (Node decodes it on UTF-8's fast path; the comments esbuild keeps had `§` and `—`)", () => {
  for (const chunk of readdirSync(built).filter((name) => name.endsWith(".js"))) {
    const text = readFileSync(join(built, chunk), "utf8");
    assert.ok(/^[\x00-\x7f]*$/.test(text), `${chunk} has a non-ASCII character`);
  }
});

t("https, tls, zlib and vm are not loaded by the time the bundle answers /api/health; the start line gives each phase's CPU", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-bundle-home-"));
  const out = join(home, "modules.json");
  const port = await freePort();
  const server = await startServer({
    name: "muster",
    args: ["--import", join(root, "test/core/fixtures/record-modules.mjs"), "core/entry.js", "start"],
    env: { PORT: String(port), MUSTER_HOME: home, GATEWAY_URL: "off", LOG_LEVEL: "info", MUSTER_START_BUNDLE_DIR: built, MUSTER_START_BUNDLE: "no-rebuild", MUSTER_TEST_MODULES_OUT: out },
    port,
    cwd: root,
    timeoutMs: 120_000,
  });
  try {
    server.child.kill("SIGUSR2");
    const loaded = await waitUntil(() => {
      try {
        return JSON.parse(readFileSync(out, "utf8")) as string[];
      } catch {
        return null; // not written yet
      }
    }, { label: "the module list" });
    assert.ok(loaded.some((url) => url.startsWith(`file://${built}/`)), "the bundle ran");
    assert.ok(loaded.includes("node:http"), "built-ins are listed");
    for (const name of ["node:https", "node:tls", "node:zlib", "node:vm"]) assert.not.ok(loaded.includes(name), `${name} loaded before the first answer`);
    const line = await waitUntil(() => server.output().split("\n").find((l) => l.includes('"muster started"')) ?? null, { timeoutMs: 10_000, label: "the start line" });
    const phases = (JSON.parse(line) as { startup: { name: string; ms: number; cpuMs: number }[] }).startup;
    assert.ok(phases.length > 5 && phases.every((p) => typeof p.cpuMs === "number" && p.cpuMs >= 0), line);
  } finally {
    await stopServer(server.child);
    removeHome(home);
  }
});

t("a lazily loaded built-in's shim is the module itself on first use: every export (zlib's non-enumerable constants too), assignments reach it", () => {
  const require = createRequire(import.meta.url);
  for (const name of ["node:zlib", "node:https", "node:child_process"]) {
    const real = require(name) as Record<string, unknown>;
    const shim = { exports: {} as Record<string, unknown> };
    let loads = 0;
    new Function("module", "exports", "require", builtinShim(name))(shim, shim.exports, (id: string) => (loads++, require(id)));
    assert.is(loads, 0, `${name} loaded with its shim`);
    assert.equal(Object.getOwnPropertyNames(shim.exports).sort(), Object.getOwnPropertyNames(real).sort());
    assert.equal(Object.keys(shim.exports).sort(), Object.keys(real).sort(), "the same names enumerable");
    for (const key of Object.getOwnPropertyNames(real)) assert.is(shim.exports[key], real[key], `${name}.${key}`);
    assert.is(loads, 1, "loaded once");
  }
  const https = require("node:https") as { globalAgent: unknown };
  const shim = { exports: {} as Record<string, unknown> };
  new Function("module", "exports", "require", builtinShim("node:https"))(shim, shim.exports, require);
  const before = https.globalAgent;
  const agent = {};
  try {
    shim.exports.globalAgent = agent;
    assert.is(https.globalAgent, agent);
  } finally {
    https.globalAgent = before;
  }
});

t("a bundle built from another checkout is not run here, though that checkout's files are unchanged: the sources answer", async () => {
  // A checkout copied with its node_modules (a git worktree made from another, a copied
  // install): before, the copy ran the other checkout's code whatever was edited in it.
  assert.ok(freshBundle(built, root), "this checkout's bundle matches here");
  const foreign = join(work, "other-checkout");
  cpSync(built, foreign, { recursive: true });
  const manifestFile = join(foreign, "manifest.json");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Record<string, unknown>;
  manifest.root = join(work, "elsewhere", "muster");
  writeFileSync(manifestFile, JSON.stringify(manifest));
  assert.is(freshBundle(foreign, root), null);
  const s = await start({ MUSTER_START_BUNDLE_DIR: foreign, MUSTER_START_BUNDLE: "no-rebuild" });
  try {
    assert.not.ok(s.bundled, `the other checkout's bundle ran:\n${s.server.output()}`);
    assert.is((await fetch(`${s.url}/api/tasks`)).status, 200);
  } finally {
    await stopServer(s.server.child);
    removeHome(s.home);
  }
});

t("a bundle older than one of its inputs is not run: the sources answer, and a rebuild in the background makes it match again", async () => {
  const stale = join(work, "stale");
  cpSync(built, stale, { recursive: true });
  // As if core/host.ts had been edited after the build (without touching the real file).
  const manifestFile = join(stale, "manifest.json");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  const entry = manifest.inputs.find(([path]: [string]) => path.endsWith("/core/host.ts"));
  assert.ok(entry, "core/host.ts is an input");
  entry[2] -= 1_000;
  writeFileSync(manifestFile, JSON.stringify(manifest));
  assert.is(freshBundle(stale), null);

  const s = await start({ MUSTER_START_BUNDLE_DIR: stale });
  try {
    assert.not.ok(s.bundled, "the stale bundle did not run");
    assert.is((await fetch(`${s.url}/api/tasks`)).status, 200);
  } finally {
    await stopServer(s.server.child);
    removeHome(s.home);
  }
  // The start asked for a rebuild (one at a time, under a lock) that replaces the stale bundle.
  await waitUntil(() => freshBundle(stale) !== null && !existsSync(`${stale}.lock`), { timeoutMs: 300_000, intervalMs: 500, label: "the rebuilt bundle" });
  const again = await start({ MUSTER_START_BUNDLE_DIR: stale, MUSTER_START_BUNDLE: "no-rebuild" });
  try {
    assert.ok(again.bundled, "the rebuilt bundle runs");
  } finally {
    await stopServer(again.server.child);
    removeHome(again.home);
  }
});

t("MUSTER_START_BUNDLE=off runs the sources even with a matching bundle", async () => {
  const s = await start({ MUSTER_START_BUNDLE_DIR: built, MUSTER_START_BUNDLE: "off" });
  try {
    assert.not.ok(s.bundled);
    assert.is((await fetch(`${s.url}/api/health`)).status, 200);
  } finally {
    await stopServer(s.server.child);
    removeHome(s.home);
  }
});

t.run();
