// Takes docs/dashboard.png from the real page: a test host with sample data, signed in
// through a one-time login link, one workspace write arriving live.
// Usage: npm run docs:dashboard-screenshot
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withTestHost } from "../helpers/start-test-host.ts";
import { chromiumMissing, signedInPage, withBrowser } from "./browser.ts";
import { seedSampleData } from "./sample-data.ts";

const out = process.argv[2] ?? new URL("../../docs/dashboard.png", import.meta.url).pathname;
const missing = chromiumMissing();
if (missing) {
  console.error(missing);
  process.exit(1);
}

await withTestHost({ env: { VAULT_KEY: "sample-screenshot-passphrase" } }, async (h) => {
  await seedSampleData(h);
  await withBrowser(async (browser) => {
    const page = await signedInPage(browser, h, { width: 1440, height: 1100 });
    mkdirSync(join(h.workspace, "memory"), { recursive: true });
    writeFileSync(join(h.workspace, "memory", "2026-11-23.md"), "# Daily notes\n");
    await page.getByText("memory/2026-11-23.md").first().waitFor();
    await page.waitForTimeout(1300); // lets the arrival highlight fade for a calm picture
    await page.screenshot({ path: out, fullPage: true });
  });
});
console.log(`wrote ${out}`);
