// The README's "Writing a plugin" snippet is examples/readme/release-notes.ts verbatim (so
// `npm run typecheck` compiles exactly what the README shows), and that plugin works.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { withTestHost } from "../helpers/start-test-host.ts";
import releaseNotes from "../../examples/readme/release-notes.ts";

const t = suite("README plugin snippet");
const root = new URL("../..", import.meta.url).pathname;

t("the README shows examples/readme/release-notes.ts as it is", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const snippet = readFileSync(join(root, "examples/readme/release-notes.ts"), "utf8");
  assert.ok(readme.includes("```ts\n" + snippet + "```\n"), "README.md's plugin snippet differs from examples/readme/release-notes.ts");
});

t("the snippet's plugin is served: its route, its entity and migration, its typed config and error", async () => {
  await withTestHost({ extraPlugins: [releaseNotes], config: { pluginConfig: { "release-notes": { maxNotes: 1 } } } }, async (h) => {
    const created = await h.json("/api/release-notes", { method: "POST", body: { text: "Faster search" }, headers: { "x-agent-id": "writer" } });
    assert.is(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body, { ok: true, note: { id: 1, text: "Faster search", author: "writer" } });
    const full = await h.json("/api/release-notes", { method: "POST", body: { text: "Second" } });
    assert.is(full.status, 409);
    assert.is(full.body.error!.code, "RELEASE_NOTES_FULL");
    assert.is((await h.json("/api/release-notes", { method: "POST", body: { text: "x", extra: 1 } })).body.error!.code, "VALIDATION_FAILED");
  });
});

t.run();
