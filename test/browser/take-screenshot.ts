// Takes the console's Home and Approvals screenshots from the real pages: a test host with
// sample data, signed in through a one-time login link, one workspace write arriving live.
// Usage: npm run docs:dashboard-screenshot [output directory, default docs/console/]
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withTestHost } from "../helpers/start-test-host.ts";
import { chromiumMissing, withBrowser } from "./browser.ts";
import { openConsole } from "./console.ts";
import { seedSampleData } from "./sample-data.ts";

const outDir = process.argv[2] ?? new URL("../../docs/console/", import.meta.url).pathname;
const missing = chromiumMissing();
if (missing) {
  console.error(missing);
  process.exit(1);
}

const VIEWPORT = { width: 1440, height: 1000 };
mkdirSync(outDir, { recursive: true });
await withTestHost({ env: { VAULT_KEY: "sample-screenshot-passphrase" } }, async (h) => {
  await seedSampleData(h);
  await withBrowser(async (browser) => {
    const home = await openConsole(browser, h, "/", VIEWPORT);
    mkdirSync(join(h.workspace, "memory"), { recursive: true });
    writeFileSync(join(h.workspace, "memory", "2026-11-23.md"), "# Daily notes\n");
    await home.getByText("memory/2026-11-23.md").first().waitFor();
    for (const name of ["Pending approvals", "Failed sends", "Failed cron runs", "Agent health", "Vault", "Usage today"]) {
      await home.getByRole("region", { name }).locator(".panel-body > *").first().waitFor();
    }
    await home.waitForTimeout(1300); // lets the arrival highlight fade for a calm picture
    await home.screenshot({ path: join(outDir, "home.png"), fullPage: true });

    const approvals = await openConsole(browser, h, "/console/approvals", VIEWPORT);
    await approvals.locator("article.approval").first().waitFor();
    await approvals.locator("#approvals-history li").first().waitFor();
    // One card open, so the picture shows what "Details and exact payload" holds.
    await approvals.locator("article.approval").first().locator("summary").click();
    await approvals.locator("article.approval").first().locator("pre").waitFor();
    await approvals.screenshot({ path: join(outDir, "approvals.png"), fullPage: true });
  });
});
console.log(`wrote ${join(outDir, "home.png")} and ${join(outDir, "approvals.png")}`);
