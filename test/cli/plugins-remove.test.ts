// `muster plugins remove <package>`: the reverse of `plugins add` (disabled in
// muster.config.json, uninstalled from MUSTER_HOME); an unknown package exits 1 by code.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NODE_ENV, npmPack } from "../helpers/plugin-package.ts";
import { removeHome } from "../helpers/start-test-host.ts";
import { runMuster } from "./run-muster.ts";

const t = suite("muster plugins remove");

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

t("removes what plugins add installed and enabled; a second remove is refused", async () => {
  const work = mkdtempSync(join(tmpdir(), "muster-remove-"));
  try {
    const pkg = join(work, "tiny");
    mkdirSync(pkg);
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "muster-plugin-tiny", version: "1.0.0", type: "module", main: "index.js", muster: { plugin: true } }));
    writeFileSync(join(pkg, "index.js"), 'export default { id: "tiny", version: "1.0.0", host: "^1.0.0" };\n');
    const tarball = npmPack(pkg, work);
    const home = join(work, "home");
    const env = { MUSTER_HOME: home, PATH: NODE_ENV.PATH! };
    const added = await runMuster(["plugins", "add", tarball], env, 120_000);
    assert.is(added.status, 0, added.stderr);
    assert.equal(readJson(join(home, "muster.config.json")).plugins, ["muster-plugin-tiny"]);

    const removed = await runMuster(["plugins", "remove", "muster-plugin-tiny"], env, 120_000);
    assert.is(removed.status, 0, removed.stderr);
    assert.match(removed.stdout, /Removed plugin package "muster-plugin-tiny"/);
    assert.equal(readJson(join(home, "muster.config.json")).plugins, []);
    assert.not.ok("muster-plugin-tiny" in (readJson(join(home, "package.json")).dependencies ?? {}));
    assert.not.ok(existsSync(join(home, "node_modules", "muster-plugin-tiny")));

    const again = await runMuster(["plugins", "remove", "muster-plugin-tiny"], env);
    assert.is(again.status, 1);
    assert.match(again.stderr, /^muster plugins: PLUGIN_NOT_INSTALLED: /);
    for (const args of [["plugins", "remove"], ["plugins", "remove", "a", "b"], ["plugins", "remove", "--all"]]) {
      const usage = await runMuster(args, env);
      assert.is(usage.status, 2, args.join(" "));
      assert.match(usage.stderr, /Usage: muster plugins/);
    }
  } finally {
    removeHome(work);
  }
});

t.run();
