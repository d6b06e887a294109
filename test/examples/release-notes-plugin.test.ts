// examples/muster-plugin-release-notes as its author ships it and a user installs it:
// @muster/plugin packed (its prepack builds dist/: JavaScript + .d.ts) and unpacked into a
// separate temporary project, the example copied there and built by tsc against that .d.ts
// (JavaScript + declarations; its other dependencies, zod, MikroORM and typescript, are the
// repository's own, linked), packed, installed with `muster plugins add <tarball>` into a
// fresh MUSTER_HOME, then served by the host and called over HTTP.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";

setTimeout(() => { console.error("release-notes-plugin.test.ts timed out"); process.exit(1); }, 120_000).unref();

const root = new URL("../..", import.meta.url).pathname;
const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` };
const tmp = mkdtempSync(join(tmpdir(), "muster-example-"));
const home = join(tmp, "home");
const project = join(tmp, "muster-plugin-release-notes");
const pack = (dir: string, ...flags: string[]) =>
  join(tmp, execFileSync("npm", ["pack", dir, "--pack-destination", tmp, "--silent", ...flags], { encoding: "utf8", env }).trim().split("\n").pop()!);

const t = suite<{ h: TestHost }>("example plugin: release-notes");

t.before(async (ctx) => {
  // The example's own project: its sources, @muster/plugin from its tarball, the rest linked.
  cpSync(join(root, "examples/muster-plugin-release-notes"), project, { recursive: true, filter: (src) => !/\/(dist|node_modules)$/.test(src) });
  const modules = join(project, "node_modules");
  mkdirSync(join(modules, "@muster"), { recursive: true });
  for (const name of readdirSync(join(root, "node_modules"))) if (name !== "@muster" && name !== ".bin") symlinkSync(join(root, "node_modules", name), join(modules, name));
  execFileSync("tar", ["-xzf", pack(join(root, "core/plugin-api")), "-C", tmp]);
  renameSync(join(tmp, "package"), join(modules, "@muster/plugin"));

  const build = spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: project, encoding: "utf8", env });
  assert.is(build.status, 0, build.stdout + build.stderr);
  // Declarations name real types (a definition with a typed config, an entity), not `any`.
  assert.match(readFileSync(join(project, "dist/index.d.ts"), "utf8"), /PluginDefinition<\{/);
  assert.not.match(readFileSync(join(project, "dist/entities/release-note.d.ts"), "utf8"), /: any;/);

  const add = spawnSync(process.execPath, [join(root, "core/main.ts"), "plugins", "add", pack(project, "--ignore-scripts")], {
    env: { ...env, MUSTER_HOME: home, LOG_LEVEL: "silent" },
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.is(add.status, 0, add.stderr + add.stdout);
  assert.match(add.stdout, /Enabled plugin "release-notes" \(npm:muster-plugin-release-notes@0\.1\.0\)/);
  ctx.h = await startTestHost({ home, config: { plugins: ["muster-plugin-release-notes"], pluginConfig: { "release-notes": { title: "What's new", maxNotes: 2 } } } });
});

t.after(async (ctx) => {
  await ctx.h?.stop();
  removeHome(tmp);
});

t("its routes are served: a note is added (entity write), listed with the configured title, read by id", async ({ h }) => {
  const created = await h.json("/api/release-notes", { method: "POST", body: { version: "1.2.0", text: "Faster search" }, headers: { "x-agent-id": "writer" } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.equal({ ...created.body.note, createdAt: "-" }, { id: 1, version: "1.2.0", text: "Faster search", author: "writer", createdAt: "-" });
  const list = await h.json("/api/release-notes?version=1.2.0");
  assert.is(list.status, 200);
  assert.is(list.body.title, "What's new");
  assert.equal(list.body.notes.map((n: { text: string }) => n.text), ["Faster search"]);
  assert.is((await h.json("/api/release-notes/1")).body.note.version, "1.2.0");
});

t("its zod schemas and error catalogue produce the host's envelopes; its config caps the notes", async ({ h }) => {
  const bad = await h.json("/api/release-notes", { method: "POST", body: { version: "next", text: "x" } });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.code, "VALIDATION_FAILED");
  const missing = await h.json("/api/release-notes/99");
  assert.is(missing.status, 404);
  assert.is(missing.body.error.code, "RELEASE_NOTES_NOT_FOUND");
  assert.is((await h.json("/api/release-notes", { method: "POST", body: { version: "1.3.0", text: "Second" } })).status, 201);
  const full = await h.json("/api/release-notes", { method: "POST", body: { version: "1.4.0", text: "Third" } });
  assert.is(full.status, 409);
  assert.is(full.body.error.code, "RELEASE_NOTES_FULL");
});

t("it is listed as an installed plugin and its route is in the OpenAPI document", async ({ h }) => {
  const plugin = (await h.json("/api/plugins")).body.plugins.find((p: { id: string }) => p.id === "release-notes");
  assert.is(plugin.source, "npm:muster-plugin-release-notes@0.1.0");
  assert.is(plugin.state, "started");
  assert.ok((await h.json("/api/openapi.json")).body.paths["/api/release-notes"].post);
});

t.run();
