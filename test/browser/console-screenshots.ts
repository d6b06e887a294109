// Takes a screenshot of every console page into docs/console/<page>.jpg (home.jpg for `/`):
// a test host with sample data, signed in through a one-time login link, one workspace write
// arriving live on the home page; then rewrites the screenshots section of docs/console.md to
// show every page taken. Pages added later are taken without a line here.
// Usage: npm run docs:console-screenshots [-- <page id> ...]
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withTestHost } from "../helpers/start-test-host.ts";
import { chromiumMissing, withBrowser } from "./browser.ts";
import { openConsole, waitForConsole } from "./console.ts";
import { seedSampleData } from "./sample-data.ts";

const outDir = new URL("../../docs/console/", import.meta.url).pathname;
const consoleDoc = new URL("../../docs/console.md", import.meta.url).pathname;
const taken: { id: string; title: string; path: string }[] = [];
const only = process.argv.slice(2);
const missing = chromiumMissing();
if (missing) {
  console.error(missing);
  process.exit(1);
}
mkdirSync(outDir, { recursive: true });

await withTestHost({ config: { owner: "sam" }, env: { VAULT_KEY: "sample-screenshot-passphrase" } }, async (h) => {
  await seedSampleData(h);
  const { pages } = (await (await h.request("/dashboard/pages")).json()) as { pages: { id: string; title: string; path: string }[] };
  await withBrowser(async (browser) => {
    const tab = await openConsole(browser, h, "/", { width: 1280, height: 860 });
    for (const place of [{ id: "home", title: "Home", path: "/" }, ...pages]) {
      if (only.length && !only.includes(place.id)) continue;
      await tab.goto(new URL(place.path, h.url).href);
      await waitForConsole(tab);
      await tab.getByRole("heading", { level: 1, name: place.title }).waitFor();
      if (place.id === "home") {
        mkdirSync(join(h.workspace, "memory"), { recursive: true });
        writeFileSync(join(h.workspace, "memory", "2026-11-23.md"), "# Daily notes\n");
        await tab.getByText("memory/2026-11-23.md").first().waitFor();
      }
      await tab.waitForLoadState("networkidle").catch(() => {});
      await tab.waitForTimeout(1300); // lets arrival highlights fade for a calm picture
      const path = join(outDir, `${place.id}.jpg`);
      await tab.screenshot({ path, type: "jpeg", quality: 70 });
      taken.push(place);
      console.log(`wrote docs/console/${place.id}.jpg`);
    }
  });
});

// Every page's picture in docs/console.md, between its screenshots markers.
if (only.length === 0) {
  const start = "<!-- console-screenshots:start -->";
  const end = "<!-- console-screenshots:end -->";
  const doc = readFileSync(consoleDoc, "utf8");
  const gallery = taken.map((place) => `### ${place.title} (\`${place.path}\`)\n\n![${place.title}](console/${place.id}.jpg)\n`).join("\n");
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from >= 0 && to > from) writeFileSync(consoleDoc, `${doc.slice(0, from + start.length)}\n${gallery}${doc.slice(to)}`);
  console.log(`docs/console.md: ${taken.length} screenshots listed`);
}
