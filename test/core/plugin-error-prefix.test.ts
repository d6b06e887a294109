// Issue 23: a plugin's error codes carry its prefix. A third-party plugin whose catalogue,
// declared with its id, holds a code without that prefix never starts: `muster start` stops
// with one line naming the code, as it does for the host's other start-up refusals.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runMuster, ROOT } from "../cli/run-muster.ts";
import { removeHome } from "../helpers/start-test-host.ts";

const t = suite("plugin error code prefix");

/** Installs test/fixtures/muster-plugin-hello into `home` as it is, but with `catalogue` (JavaScript) declared beside it. */
function installHelloWith(home: string, catalogue: string): void {
  const dir = join(home, "node_modules", "muster-plugin-hello");
  cpSync(join(ROOT, "test/fixtures/muster-plugin-hello"), dir, { recursive: true });
  const code = readFileSync(join(dir, "index.js"), "utf8").replace('import { definePlugin, z } from "@muster/plugin";', 'import { defineErrors, definePlugin, z } from "@muster/plugin";');
  writeFileSync(join(dir, "index.js"), `${code}\nexport const helloErrors = ${catalogue};\n`);
  writeFileSync(join(home, "muster.config.json"), JSON.stringify({ plugins: ["muster-plugin-hello"] }));
}

t("`muster start` refuses a plugin whose catalogue declares a code without its prefix, in one line", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-prefix-"));
  try {
    installHelloWith(home, `defineErrors("hello", { HELLO_NAME_TOO_LONG: { status: 400, message: "Too long" }, GREETING_FAILED: { status: 500, message: "Failed" } })`);
    const run = await runMuster(["start"], { MUSTER_HOME: home, PORT: "0", GATEWAY_URL: "off" });
    assert.is(run.status, 1, run.stdout + run.stderr);
    assert.is(
      run.stderr.trim(),
      'muster: PLUGIN_ERROR_CODE_PREFIX: Plugin "hello" declares the error code GREETING_FAILED, which does not carry its prefix HELLO_; rename it, or exempt it with the reason (a published code clients match)',
    );
  } finally {
    removeHome(home);
  }
});

t("the same code, exempt by name with its reason, starts and keeps its name", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-prefix-"));
  try {
    installHelloWith(home, `defineErrors("hello", { GREETING_FAILED: { status: 500, message: "Failed" } }, { exempt: { GREETING_FAILED: "published in version 0.1.0" } })`);
    const run = await runMuster(["plugins"], { MUSTER_HOME: home });
    assert.is(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /hello\s+0\.1\.0\s+npm:muster-plugin-hello@0\.1\.0\s+loads/);
  } finally {
    removeHome(home);
  }
});

t.run();
