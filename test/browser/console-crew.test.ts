// The Crew console pages in a real Chromium against a real host wired to the fake gateway:
// the agent list with health (an agent the gateway does not know is "not registered", never
// healthy), the org chart as nested lists, creating an agent from a persona template and
// installing a pack (each shows its approval with a link), an agent's page (activity, sessions,
// heartbeat, tool policy change as an approval, coverage), refusals with their codes,
// agent-written text as text, the accessibility check and a 390 px wide screen.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { minutesAgo, ORG, refreshSessions, startAgentsRig, type AgentsRig } from "../plugins/agents/agents-rig.ts";
import { suiteBrowser } from "./console-suite.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, openConsole, seriousViolations } from "./console.ts";

const t = suite("console: crew");
const missing = chromiumMissing();
const XSS = `<img src=x onerror="window.__xss=1">`;

const agent = (id: string, over: Record<string, unknown> = {}) => ({ id, name: id.toUpperCase(), role: "operator", model: "m-small", tier: 3, skills: ["ops"], ...over });
const pack = (name: string) =>
  JSON.stringify({ name, version: "1.2.3", description: `${name} pack`, squad: { id: name, name: `${name} squad`, domain: "ops", chief: `${name}-a` }, agents: [agent(`${name}-a`, { tier: 2, persona: "developer" }), agent(`${name}-b`, { reportsTo: `${name}-a` })] });

let rig: AgentsRig;
/** One browser for the suite (console-suite.ts). */
const shared = suiteBrowser();

t.before(async () => {
  if (missing) return;
  rig = await startAgentsRig({
    files: {
      // freya's name is agent-written text (an XSS string); the gateway knows every agent but freya.
      "company/org_structure.yaml": ORG.replace("freya: {id: freya,", `freya: {id: freya, name: '${XSS}',`),
      "personas/execution/developer.md": "# Developer persona\nYou write code.",
      "packs/valet.json": pack("valet"),
    },
    gateway: { agents: [{ id: "main" }, { id: "odin" }, { id: "thor" }, { id: "loki" }] },
  });
  rig.gw.setSessions([{ key: "agent:loki:main", agentId: "loki", updatedAt: minutesAgo(1), model: "m-small" }]);
  await refreshSessions(rig, (b) => (b.agents.find((a: { id: string; state: string }) => a.id === "loki")?.state === "active" ? b : null));
  const logged = await rig.h.json("/api/activities", { method: "POST", body: { agentId: "loki", action: "task.comment", target: "T-1", details: XSS } });
  assert.is(logged.status, 201, JSON.stringify(logged.body));
  await shared.open();
});

t.after(async () => {
  if (missing) return;
  await shared.close();
  await rig.close();
});

async function withPage(path: string, fn: (page: Page) => Promise<void>, viewport?: { width: number; height: number }) {
  const page = await openConsole(shared.browser, rig.h, path, viewport);
  try {
    await fn(page);
  } finally {
    await page.close();
  }
}

const row = (page: Page, agentId: string) => page.locator("table.data tbody tr", { has: page.locator(`a[href="/console/crew/${agentId}"]`) }).first();

async function noXss(page: Page) {
  assert.is(await page.evaluate("window.__xss"), undefined);
  assert.is(await page.locator("img[src=x]").count(), 0);
}

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("the agent list: health, model, squad, reporting line; an agent the gateway does not know is not registered, not idle", async () => {
    await withPage("/console/crew", async (page) => {
      await page.getByRole("heading", { level: 1, name: "Crew" }).waitFor();
      await row(page, "loki").getByText("active").waitFor();
      const loki = await row(page, "loki").innerText();
      assert.match(loki, "m-small");
      assert.match(loki, "dev");
      assert.match(loki, "thor");
      const freya = row(page, "freya");
      await freya.getByText("not registered").waitFor();
      assert.not.match(await freya.innerText(), /\bidle\b/);
      // The name is shown as text, never as markup.
      assert.match(await freya.innerText(), XSS);
      await noXss(page);
      await page.getByRole("button", { name: "Register missing agents" }).waitFor();
      assert.equal(describeViolations(await seriousViolations(page)), "");
    });
  });

  t("the org chart is a list of lists: odin over thor over loki and freya", async () => {
    await withPage("/console/crew", async (page) => {
      const chart = page.locator(".org-chart");
      await chart.getByRole("link", { name: "odin", exact: true }).waitFor();
      // The names are the organisation file's (ids where it gives none; freya's is the XSS string).
      const thorItem = chart.locator('li:has(> a[href="/console/crew/thor"])');
      const underThor = await thorItem.locator(":scope > ul > li > a").allInnerTexts();
      assert.equal(underThor.sort(), ["loki", XSS].sort());
      const odinItem = chart.locator(":scope > ul > li").first();
      assert.is(await odinItem.locator(":scope > a").innerText(), "odin");
      assert.is(await odinItem.locator(":scope > ul > li > a").innerText(), "thor");
    });
  });

  t("create an agent from a persona template: the approval is shown with its link; an existing id is refused with its code", async () => {
    await withPage("/console/crew", async (page) => {
      const form = page.getByRole("form", { name: "Create an agent from a persona template" });
      await form.getByLabel("Persona template").selectOption("developer");
      await form.getByLabel("Name").fill("Loki again");
      await form.getByLabel("Agent id").fill("loki");
      await form.getByLabel("Model").fill("m-small");
      await form.getByRole("button", { name: "Create agent" }).click();
      await form.getByRole("alert").getByText("AGENT_ALREADY_EXISTS").waitFor();
      assert.is(await form.getByLabel("Name").inputValue(), "Loki again", "what was typed is kept");

      await form.getByLabel("Name").fill("Sif");
      await form.getByLabel("Agent id").fill("sif");
      await form.getByLabel("Squad").fill("dev");
      await form.getByLabel("Reports to").selectOption("thor");
      await form.getByRole("button", { name: "Create agent" }).click();
      const link = page.getByRole("link", { name: /^Open approval / });
      await link.waitFor();
      const href = (await link.getAttribute("href"))!;
      const id = href.replace("/console/approvals/", "");
      const approval = await rig.h.json(`/api/approvals/${id}`);
      assert.is(approval.status, 200);
      assert.is(approval.body.approval.command, "agents.register");
      await row(page, "sif").getByText("not registered").waitFor();
    });
  });

  t("a pack installs through an approval", async () => {
    await withPage("/console/crew", async (page) => {
      await page.getByRole("button", { name: "Install pack valet" }).click();
      await page.getByText("Pack valet was installed in the workspace.").waitFor();
      await page.getByRole("link", { name: /^Open approval / }).waitFor();
      await page.getByRole("cell", { name: "installed" }).waitFor();
    });
  });

  t("an agent's page: activity as text, sessions, heartbeat, coverage, a tool change as an approval", async () => {
    await withPage("/console/crew/loki", async (page) => {
      await page.getByRole("heading", { level: 1, name: "loki" }).waitFor();
      const activity = page.locator("section", { has: page.getByRole("heading", { name: "Activity" }) });
      await activity.getByText(XSS).waitFor();
      const sessions = page.locator("section", { has: page.getByRole("heading", { name: "Sessions" }) });
      await sessions.getByText("agent:loki:main").waitFor();
      const coverage = page.locator("section", { has: page.getByRole("heading", { name: "Coverage" }) });
      await coverage.getByRole("link", { name: "freya" }).waitFor();
      await page.getByRole("button", { name: "Check heartbeat" }).click();
      // The state depends on how long ago the session was (the machine may be slow): only that one is shown.
      await page.locator("section", { has: page.getByRole("heading", { name: "Heartbeat" }) }).getByRole("status").filter({ hasText: / at / }).waitFor();

      const form = page.getByRole("form", { name: "Request a change of loki's tools and sandbox" });
      await form.getByRole("button", { name: "Request change" }).click();
      await form.getByRole("alert").getByText("AGENT_CONFIG_UNCHANGED").waitFor();
      await form.getByLabel("Denied tools").fill("exec");
      await form.getByRole("button", { name: "Request change" }).click();
      await page.getByRole("link", { name: /^Open approval / }).waitFor();
      await noXss(page);
      assert.equal(describeViolations(await seriousViolations(page)), "");
    });
  });

  t("an agent the crew does not have: the page says so with the code", async () => {
    await withPage("/console/crew/nobody", async (page) => {
      await page.getByRole("alert").getByText("AGENT_NOT_FOUND").waitFor();
    });
  });

  t("at 390 px wide the list and an agent's page do not scroll sideways", async () => {
    for (const path of ["/console/crew", "/console/crew/thor"]) {
      await withPage(path, async (page) => {
        await page.locator("h1").waitFor();
        await page.locator("table.data").first().waitFor();
        assert.ok((await page.evaluate("document.documentElement.scrollWidth")) as number <= 390, path);
      }, { width: 390, height: 800 });
    }
  });
}

t.run();
