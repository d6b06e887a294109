// The error catalogue as a whole, in the style of Fastify's test/internals/errors.test.js:
// every code unique across Muster, upper case, with an HTTP status and a well-formed
// message template, and documented in docs/errors.md exactly as the generator writes it.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { globSync, readFileSync } from "node:fs";
import { STATUS_CODES } from "node:http";
import { join, sep } from "node:path";
import { defineErrors, MusterError } from "@muster/plugin";
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
  const elsewhere = runtime.filter((file) => !scanned.has(file) && /\bdefineErrors\(\{/.test(readFileSync(join(ROOT, file), "utf8")));
  assert.equal(elsewhere, []);
});

t("a factory's parameters are typed from its template and fill it", () => {
  const sample = defineErrors({
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

/** Every TypeScript source of the host, the plugins and the scripts, repository-relative. */
function sourceFiles(): string[] {
  const skip = (name: string) => name === "node_modules" || name === "dist";
  return ["core", "plugins", "scripts"].flatMap((dir) =>
    globSync("**/*.ts", { cwd: join(ROOT, dir), exclude: skip }).map((file) => `${dir}/${file.split(sep).join("/")}`),
  );
}

t.run();
