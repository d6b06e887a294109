// The SDK's generated ABIs must match the compiled contracts; run `npm run abi` when this fails.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import { licenseTokenAbi, marketplaceAbi, templateRegistryAbi } from "../../sdk/src/index.ts";
import { ROOT, buildContracts } from "../contracts/support/build-lock.ts";
import { scaled } from "../../core/plugin-api/testing/time-scale.ts";

setTimeout(() => { console.error("abi-in-sync.test.ts timed out"); process.exit(1); }, scaled(300_000)).unref();

test.before(async () => { await buildContracts(); });

for (const [name, abi] of [["TemplateRegistry", templateRegistryAbi], ["LicenseToken", licenseTokenAbi], ["Marketplace", marketplaceAbi]] as const) {
  test(`sdk/src/abi matches the ${name} artifact`, () => {
    const artifact = JSON.parse(readFileSync(join(ROOT, "artifacts/contracts", `${name}.sol`, `${name}.json`), "utf8")) as { abi: unknown };
    assert.deepEqual(abi, artifact.abi, `${name} ABI is stale: run npm run abi`);
  });
}

test.run();
