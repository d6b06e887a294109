import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startTestHost, removeHome } from "../helpers/start-test-host.ts";

const t = suite("new-plugin scaffold");
const root = new URL("../..", import.meta.url).pathname;

t("scaffolds a working plugin and registers it", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "muster-scaffold-"));
  mkdirSync(join(tmp, "plugins"));
  mkdirSync(join(tmp, "node_modules"));
  symlinkSync(root, join(tmp, "node_modules", "muster"));
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

t("refuses ids that are not kebab-case", () => {
  const run = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts/new-plugin.ts"), "Bad_Id", "--root", tmpdir()], { encoding: "utf8", timeout: 30_000 });
  assert.is(run.status, 2);
  assert.match(run.stderr, /kebab-case/);
});

t.run();
