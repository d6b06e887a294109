// examples/muster-plugin-release-notes as its author ships it and a user installs it: built
// by tsc (JavaScript + declarations) against the packed @muster/plugin in a separate temporary
// project (test/helpers/plugin-package.ts), packed, installed with `muster plugins add
// <tarball>` into a fresh MUSTER_HOME, then served by the host and called over HTTP.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";
import { ROOT, buildPlugin, installPluginKit, musterPluginsAdd, npmPack } from "../helpers/plugin-package.ts";
import type { Answer } from "@muster/plugin/testing";
import { scaled } from "../../core/plugin-api/testing/time-scale.ts";

setTimeout(() => { console.error("release-notes-plugin.test.ts timed out"); process.exit(1); }, scaled(120_000)).unref();

const tmp = mkdtempSync(join(tmpdir(), "muster-example-"));
const home = join(tmp, "home");
const project = join(tmp, "muster-plugin-release-notes");

const t = suite<{ h: TestHost }>("example plugin: release-notes");

t.before(async (ctx) => {
  cpSync(join(ROOT, "examples/muster-plugin-release-notes"), project, { recursive: true, filter: (src) => !/\/(dist|node_modules)$/.test(src) });
  installPluginKit(project, tmp);
  const build = buildPlugin(project);
  assert.is(build.status, 0, build.output);
  // Declarations name real types (a definition with a typed config, an entity), not `any`.
  assert.match(readFileSync(join(project, "dist/index.d.ts"), "utf8"), /PluginDefinition<\{/);
  assert.not.match(readFileSync(join(project, "dist/entities/release-note.d.ts"), "utf8"), /: any;/); // a pattern, not a type: the built .d.ts has no `any`

  const add = musterPluginsAdd(npmPack(project, tmp, "--ignore-scripts"), home);
  assert.is(add.status, 0, add.stderr + add.stdout);
  assert.match(add.stdout, /Enabled plugin "release-notes" \(npm:muster-plugin-release-notes@0\.1\.0\)/);
  ctx.h = await startTestHost({ home, config: { plugins: ["muster-plugin-release-notes"], pluginConfig: { "release-notes": { title: "What's new", maxNotes: 2 } } } });
});

t.after(async (ctx) => {
  await ctx.h?.stop();
  removeHome(tmp);
});

// The example plugin's own routes, outside the OpenAPI the SDK is generated from.
type ReleaseNote = { id: number; version: string; text: string; author: string; createdAt: string };
type NoteAnswer = Answer<{ note: ReleaseNote }>;
type NotesAnswer = Answer<{ title: string; notes: ReleaseNote[] }>;

t("its routes are served: a note is added (entity write), listed with the configured title, read by id", async ({ h }) => {
  const created = await h.json<NoteAnswer>("/api/release-notes", { method: "POST", body: { version: "1.2.0", text: "Faster search" }, headers: { "x-agent-id": "writer" } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.equal({ ...created.body.note, createdAt: "-" }, { id: 1, version: "1.2.0", text: "Faster search", author: "writer", createdAt: "-" });
  const list = await h.json<NotesAnswer>("/api/release-notes?version=1.2.0");
  assert.is(list.status, 200);
  assert.is(list.body.title, "What's new");
  assert.equal(list.body.notes.map((n) => n.text), ["Faster search"]);
  assert.is((await h.json<NoteAnswer>("/api/release-notes/1")).body.note.version, "1.2.0");
});

t("its zod schemas and error catalogue produce the host's envelopes; its config caps the notes, also under concurrent adds", async ({ h }) => {
  const bad = await h.json("/api/release-notes", { method: "POST", body: { version: "next", text: "x" } });
  assert.is(bad.status, 400);
  assert.is(bad.body.error!.code, "VALIDATION_FAILED");
  const missing = await h.json("/api/release-notes/99");
  assert.is(missing.status, 404);
  assert.is(missing.body.error!.code, "RELEASE_NOTES_NOT_FOUND");
  // One slot is left: of ten concurrent adds exactly one gets it.
  const racing = await Promise.all(Array.from({ length: 10 }, (_, i) => h.json("/api/release-notes", { method: "POST", body: { version: "1.3.0", text: `Second ${i}` } })));
  assert.equal(racing.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
  assert.ok(racing.filter((r) => r.status === 409).every((r) => r.body.error!.code === "RELEASE_NOTES_FULL"));
  assert.is((await h.json<NotesAnswer>("/api/release-notes")).body.notes.length, 2, "never more than maxNotes");
  const full = await h.json("/api/release-notes", { method: "POST", body: { version: "1.4.0", text: "Third" } });
  assert.is(full.status, 409);
  assert.is(full.body.error!.code, "RELEASE_NOTES_FULL");
});

t("it is listed as an installed plugin and its route is in the OpenAPI document", async ({ h }) => {
  const plugin = (await h.json("/api/plugins")).body.plugins.find((p) => p.id === "release-notes");
  assert.is(plugin?.source, "npm:muster-plugin-release-notes@0.1.0");
  assert.is(plugin?.state, "started");
  assert.ok((await h.json("/api/openapi.json")).body.paths["/api/release-notes"]?.post);
});

t.run();
