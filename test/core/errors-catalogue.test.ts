// The error catalogue as a whole, in the style of Fastify's test/internals/errors.test.js:
// every code unique across Muster, upper case, with an HTTP status and a well-formed
// message template, and documented in docs/errors.md exactly as the generator writes it.
// A plugin's catalogue is declared with its id and its codes carry the id's prefix, except
// the codes its catalogue exempts by name, with a reason (issue 23).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { globSync, readFileSync } from "node:fs";
import { STATUS_CODES } from "node:http";
import { join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { catalogueDeclaration, defineErrors, errorCodePrefix, MusterError, PUBLISHED_BEFORE_PREFIX_RULE, type PluginDefinition } from "@muster/plugin";
import { catalogueFiles, collectErrors, ERRORS_DOC, renderErrorsDoc, ROOT } from "../../scripts/error-catalogue.ts";

const t = suite("error catalogue");
const errors = await collectErrors();

t("the catalogues are found: the host's, start-up's and every built-in plugin's", () => {
  const areas = new Set(errors.map((e) => e.area));
  for (const area of ["host", "host start-up", "approvals", "vault", "work", "search"]) assert.ok(areas.has(area), area);
  assert.ok(errors.length >= 90, `${errors.length} codes`);
});

t("every code is unique across all catalogues", () => {
  const seen = new Map<string, string>();
  for (const e of errors) {
    assert.not.ok(seen.has(e.code), `${e.code} is declared in ${seen.get(e.code)} and in ${e.catalogue} (${e.file})`);
    seen.set(e.code, `${e.catalogue} (${e.file})`);
  }
});

t("every code is upper case", () => {
  for (const e of errors) assert.match(e.code, /^[A-Z][A-Z0-9_]*$/, e.code);
});

t("every status is an HTTP error status", () => {
  for (const e of errors) {
    assert.ok(Number.isInteger(e.status) && e.status >= 400 && e.status <= 599 && STATUS_CODES[e.status] !== undefined, `${e.code}: ${e.status}`);
  }
});

t("every message template is well formed: {camelCase} placeholders, no stray braces", () => {
  for (const e of errors) {
    assert.ok(e.message.trim().length > 0, e.code);
    const rest = e.message.replace(/\{[a-z][A-Za-z0-9]*\}/g, "");
    assert.not.match(rest, /[{}]/, `${e.code}: ${e.message}`);
  }
});

t("docs/errors.md is the generated table (run `npm run errors:doc` after changing a catalogue)", () => {
  assert.fixture(readFileSync(ERRORS_DOC, "utf8"), renderErrorsDoc(errors));
});

t("no error is made ad hoc: `new MusterError(` appears only where the catalogues make them", () => {
  const offenders: string[] = [];
  for (const file of sourceFiles()) {
    if (file === "core/plugin-api/errors.ts") continue;
    if (readFileSync(join(ROOT, file), "utf8").includes("new MusterError(")) offenders.push(file);
  }
  assert.equal(offenders, []);
});

t("every catalogue is where the generator looks: defineErrors is called only in errors.ts / *-errors.ts files", () => {
  const scanned = new Set(catalogueFiles());
  const runtime = sourceFiles().filter((file) => !file.startsWith("scripts/")); // the scaffold holds one as text
  const elsewhere = runtime.filter((file) => !scanned.has(file) && /\bdefineErrors\(\s*["'{]/.test(readFileSync(join(ROOT, file), "utf8")));
  assert.equal(elsewhere, []);
});

t("every plugin's catalogue is declared with that plugin's id; the host's catalogues with none", async () => {
  const wrong: string[] = [];
  for (const e of errors) {
    const dir = /^plugins\/([^/]+)\//.exec(e.file)?.[1];
    const expected = dir === undefined ? undefined : await pluginIdOf(dir);
    if (e.pluginId !== expected) wrong.push(`${e.catalogue} (${e.file}) is declared with ${e.pluginId ?? "no plugin id"}, not ${expected ?? "none"}`);
  }
  assert.equal([...new Set(wrong)], []);
});

// The codes exempt from the prefix rule were all published before it was enforced; a new
// code carries its plugin's prefix, so this count may only go down (rename nothing a client matches).
// 80: the 79 of the plugins' catalogues, and AGENT_NOT_FOUND, which moved from the host's shared
// catalogue into the agents plugin's with the crew capability (issue 23), keeping its code.
const EXEMPT_WHEN_ENFORCED = 80;

t("every plugin code carries its plugin's prefix, or its catalogue exempts it with a reason", () => {
  const stray: string[] = [];
  let exempt = 0;
  for (const e of errors) {
    if (e.pluginId === undefined) continue;
    if (e.exemptBecause !== undefined) {
      exempt++;
      assert.ok(e.exemptBecause.trim().length > 0, `${e.code}: an exemption needs its reason`);
      assert.not.ok(e.code.startsWith(errorCodePrefix(e.pluginId)), `${e.code} carries its prefix and needs no exemption`);
    } else if (!e.code.startsWith(errorCodePrefix(e.pluginId))) {
      stray.push(`${e.code} (${e.pluginId})`);
    }
  }
  assert.equal(stray, []);
  assert.ok(exempt <= EXEMPT_WHEN_ENFORCED, `${exempt} exempt codes; a new code must carry its plugin's prefix instead`);
});

t("the prefix is the plugin id upper-snake-cased", () => {
  assert.equal(["vault", "gateway-approvals", "legacy-board", "release-notes2"].map(errorCodePrefix), ["VAULT_", "GATEWAY_APPROVALS_", "LEGACY_BOARD_", "RELEASE_NOTES2_"]);
});

t("defineErrors refuses, when the plugin's module loads, a code without the prefix that is not exempt", () => {
  const thrown = refusal(() => defineErrors("release-notes", { RELEASE_NOTES_FULL: { status: 409, message: "Full" }, NOTE_NOT_FOUND: { status: 404, message: "No note {id}" } }));
  assert.equal([thrown.code, thrown.status], ["PLUGIN_ERROR_CODE_PREFIX", 500]);
  assert.match(thrown.message, /"release-notes" declares the error code NOTE_NOT_FOUND, which does not carry its prefix RELEASE_NOTES_/);
  // Neither a code that merely starts like the id (no underscore after it) nor the singular form passes.
  assert.is(refusal(() => defineErrors("notes", { NOTESX_FULL: { status: 409, message: "Full" } })).code, "PLUGIN_ERROR_CODE_PREFIX");
  assert.is(refusal(() => defineErrors("notes", { NOTE_FULL: { status: 409, message: "Full" } })).code, "PLUGIN_ERROR_CODE_PREFIX");
});

t("an exempt code keeps its name; the exemption is kept with its reason", () => {
  const catalogue = defineErrors(
    "release-notes",
    { RELEASE_NOTES_FULL: { status: 409, message: "Full" }, NOTE_NOT_FOUND: { status: 404, message: "No note {id}" } },
    { exempt: { NOTE_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE } },
  );
  assert.is(catalogue.NOTE_NOT_FOUND({ id: 3 }).code, "NOTE_NOT_FOUND");
  assert.equal(catalogueDeclaration(catalogue), { pluginId: "release-notes", exempt: { NOTE_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE } });
  assert.equal(catalogueDeclaration(defineErrors({ SHARED_CODE: { status: 400, message: "Shared" } })), { pluginId: undefined, exempt: {} });
});

t("an exemption that does not hold is refused: an undeclared code, a code with the prefix, no reason; so is an id that is not kebab-case", () => {
  const full = { RELEASE_NOTES_FULL: { status: 409, message: "Full" } } as const;
  const cases: [() => unknown, RegExp][] = [
    // @ts-expect-error the exemption names a code the catalogue does not declare
    [() => defineErrors("release-notes", full, { exempt: { NOTE_GONE: "published" } }), /exemption of NOTE_GONE names a code the catalogue does not declare/],
    [() => defineErrors("release-notes", full, { exempt: { RELEASE_NOTES_FULL: "published" } }), /exemption of RELEASE_NOTES_FULL is not needed: the code carries the prefix RELEASE_NOTES_/],
    [() => defineErrors("release-notes", { ...full, NOTE_FULL: full.RELEASE_NOTES_FULL }, { exempt: { NOTE_FULL: " " } }), /exemption of NOTE_FULL gives no reason/],
    [() => defineErrors("Release_Notes", full), /plugin id is not kebab-case/],
  ];
  for (const [define, message] of cases) {
    const thrown = refusal(define);
    assert.is(thrown.code, "PLUGIN_ERROR_CATALOGUE_INVALID", thrown.message);
    assert.match(thrown.message, message);
  }
});

t("a factory's parameters are typed from its template and fill it", () => {
  const sample = defineErrors("sample", {
    SAMPLE_NOT_FOUND: { status: 404, message: "No sample {id} in {place}" },
    SAMPLE_PLAIN: { status: 409, message: "Plain" },
  });
  const error = sample.SAMPLE_NOT_FOUND({ id: 7, place: "the shelf" }, { details: { id: 7 } });
  assert.instance(error, MusterError);
  assert.equal([error.code, error.status, error.message, error.details], ["SAMPLE_NOT_FOUND", 404, "No sample 7 in the shelf", { id: 7 }]);
  assert.is(sample.SAMPLE_PLAIN().message, "Plain");
  assert.equal([sample.SAMPLE_NOT_FOUND.code, sample.SAMPLE_NOT_FOUND.status], ["SAMPLE_NOT_FOUND", 404]);
  // Checked by the type check (npm run typecheck), not at run time:
  // @ts-expect-error `place` is missing
  void (() => sample.SAMPLE_NOT_FOUND({ id: 7 }));
  // @ts-expect-error a template without placeholders takes no parameters
  void (() => sample.SAMPLE_PLAIN({ id: 7 }));
});

/** The MusterError `define` throws (fails the test when it throws nothing, or something else). */
function refusal(define: () => unknown): MusterError {
  try {
    define();
  } catch (error) {
    assert.instance(error, MusterError);
    return error as MusterError;
  }
  assert.unreachable("the catalogue was accepted");
  throw new Error("unreachable");
}

/** The id of the plugin defined in plugins/<dir>/index.ts. */
async function pluginIdOf(dir: string): Promise<string> {
  const module = (await import(pathToFileURL(join(ROOT, "plugins", dir, "index.ts")).href)) as Record<string, unknown>;
  const plugin = Object.values(module).find((value): value is PluginDefinition => typeof (value as PluginDefinition | undefined)?.id === "string");
  assert.ok(plugin, `plugins/${dir}/index.ts exports no plugin definition`);
  return plugin.id;
}

/** Every TypeScript source of the host, the plugins and the scripts, repository-relative. */
function sourceFiles(): string[] {
  const skip = (name: string) => name === "node_modules" || name === "dist";
  return ["core", "plugins", "scripts"].flatMap((dir) =>
    globSync("**/*.ts", { cwd: join(ROOT, dir), exclude: skip }).map((file) => `${dir}/${file.split(sep).join("/")}`),
  );
}

t.run();
