// The Skills console page in a real Chromium against a real host: the categories with their
// skills, a skill imported from pasted text and from a URL (a loopback server the host is
// configured to reach, as in test/plugins/skills), listed live and readable as text on the
// Documents page; refusals with their codes (a name with markup, a URL on a blocked address,
// an existing skill); agent-written skill text as text; the accessibility check and 390 px.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { removeHome, type TestHost } from "../helpers/start-test-host.ts";
import { DEFAULT_BLOCKED_RANGES } from "../../core/plugin-api/address-policy.ts";
import { startWithFiles } from "../plugins/search/helpers.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, seriousViolations } from "./console.ts";
import { assertFitsWidth, assertNoXss, consoleSuite, XSS, type ConsoleSuite } from "./console-suite.ts";

const t = suite("console: skills");
const missing = chromiumMissing();

let h: TestHost;
let server: Server;
let port = 0;

const suiteRig = missing ? undefined : consoleSuite(t, async () => {
  server = createServer((req, res) => {
    if (req.url === "/deploy.md") res.writeHead(200, { "content-type": "text/markdown" }).end("# Deploy\n\nTag, build, ship.\n");
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  // 127.0.0.1 reachable (the only server a test may run); 127.0.0.2 stays blocked, for the refusal.
  const blockedAddressRanges = [...DEFAULT_BLOCKED_RANGES.filter((range) => range !== "127.0.0.0/8"), "127.0.0.2/32"];
  const host = await startWithFiles(
    { "skills/engineering/code-review.md": `# Code review\nRead the diff twice. ${XSS}\n`, "skills/ops/on-call.md": "# On call\n" },
    { waitForIndex: false, config: { pluginConfig: { skills: { blockedAddressRanges } } } },
  );
  const stop = async () => {
    await host.stop();
    removeHome(host.home);
    server.closeAllConnections();
    server.close();
  };
  return { host, stop };
});
t.before(() => void (h = suiteRig!.host()));
const withPage: ConsoleSuite["withPage"] = (path, fn, viewport) => suiteRig!.withPage(path, fn, viewport);
const importForm = (page: Page) => page.getByRole("form", { name: "Import a skill" });
const categoryRow = (page: Page, category: string) => page.getByRole("row").filter({ has: page.locator("strong", { hasText: category }) });

async function fillAndImport(page: Page, fields: { name: string; category: string; content?: string; url?: string }) {
  await page.getByRole("radio", { name: fields.url === undefined ? "Paste the text" : "Fetch from a URL" }).check();
  const form = importForm(page);
  await form.getByLabel("Name", { exact: true }).fill(fields.name);
  await form.getByLabel("Category", { exact: true }).fill(fields.category);
  if (fields.url === undefined) await form.getByLabel("Skill text").fill(fields.content ?? "");
  else await form.getByLabel("Skill URL").fill(fields.url);
  await form.getByRole("button", { name: "Import skill" }).click();
}

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("the categories with their skills; a skill imported from text is listed and reads as text", () =>
    withPage("/console/skills", async (page) => {
      await page.getByRole("heading", { level: 1, name: "Skills" }).waitFor();
      await categoryRow(page, "engineering").getByRole("link", { name: "Read skill code-review (engineering)" }).waitFor();
      await categoryRow(page, "ops").getByRole("link", { name: "Read skill on-call (ops)" }).waitFor();
      await page.getByText("2 categories, 2 skills.").waitFor();

      await fillAndImport(page, { name: "Incident Review", category: "ops", content: `Write the timeline first. ${XSS}` });
      await page.getByRole("status").getByText("Imported skills/ops/incident-review.md", { exact: false }).waitFor();
      await categoryRow(page, "ops").getByRole("link", { name: "Read skill incident-review (ops)" }).waitFor();
      await page.getByText("2 categories, 3 skills.").waitFor();
      assert.equal(describeViolations(await seriousViolations(page)), "");

      await categoryRow(page, "ops").getByRole("link", { name: "Read skill incident-review (ops)" }).click();
      await page.waitForURL(/\/console\/documents\/skills%2Fops%2Fincident-review\.md$/);
      const text = page.getByLabel("Text of skills/ops/incident-review.md");
      await text.waitFor();
      assert.match(await text.innerText(), "# Skill — Incident Review");
      assert.match(await text.innerText(), `Write the timeline first. ${XSS}`);
      await assertNoXss(page);
    }));

  t("a skill imported from a URL the server fetches; no approval is involved (a read under the SSRF guard)", () =>
    withPage("/console/skills", async (page) => {
      await page.getByRole("heading", { level: 1, name: "Skills" }).waitFor();
      await fillAndImport(page, { name: "Deploy", category: "ops", url: `http://127.0.0.1:${port}/deploy.md` });
      await page.getByRole("status").getByText("Imported skills/ops/deploy.md", { exact: false }).waitFor();
      await categoryRow(page, "ops").getByRole("link", { name: "Read skill deploy (ops)" }).waitFor();
      assert.is(await page.getByRole("link", { name: /^Open approval/ }).count(), 0);
    }));

  t("refusals show their codes: a name with markup, a blocked address, an existing skill; the typed fields are kept", () =>
    withPage("/console/skills", async (page) => {
      await page.getByRole("heading", { level: 1, name: "Skills" }).waitFor();
      await fillAndImport(page, { name: XSS, category: "ops", content: "text" });
      await importForm(page).getByRole("alert").getByText(/^VALIDATION_FAILED: /).waitFor();
      assert.is(await importForm(page).getByLabel("Name", { exact: true }).inputValue(), XSS);
      await assertNoXss(page);

      await fillAndImport(page, { name: "Metadata", category: "ops", url: `http://127.0.0.2:${port}/deploy.md` });
      await importForm(page).getByRole("alert").getByText(/^SKILLS_URL_BLOCKED: /).waitFor();

      await fillAndImport(page, { name: "Code Review", category: "engineering", content: "again" });
      await importForm(page).getByRole("alert").getByText(/^SKILLS_SKILL_EXISTS: /).waitFor();
      await importForm(page).getByLabel("Replace a skill of the same name").check();
      await importForm(page).getByRole("button", { name: "Import skill" }).click();
      await page.getByRole("status").getByText("Imported skills/engineering/code-review.md", { exact: false }).waitFor();
      assert.equal(describeViolations(await seriousViolations(page)), "");
    }));

  t("a skill imported by another client appears live (skills.skill.imported); at 390 px the page does not scroll sideways", async () => {
    await withPage("/console/skills", async (page) => {
      await categoryRow(page, "engineering").waitFor();
      // Another client imports: the page follows skills.skill.imported.
      const res = await h.json("/api/skills/import", { method: "POST", body: { name: "Pairing", category: "people", content: "# Pairing\n" } });
      assert.is(res.status, 201, JSON.stringify(res.body));
      await categoryRow(page, "people").getByRole("link", { name: "Read skill pairing (people)" }).waitFor();
      await assertFitsWidth(page);
    }, { width: 390, height: 800 });
  });
}

t.run();
