// The Settings console page in a real Chromium against a real host wired to the fake gateway:
// the loaded plugins with versions, the gateway link's checks (agents it does not know),
// notifications (read, dismiss; their text as text), autopilot goals (add, pause, delete) and
// key-value settings (set, delete, a secret-like name refused with its code), the
// accessibility check and a 390 px wide screen.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { startAgentsRig, type AgentsRig } from "../plugins/agents/agents-rig.ts";
import { suiteBrowser } from "./console-suite.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, openConsole, seriousViolations } from "./console.ts";

const t = suite("console: settings");
const missing = chromiumMissing();
const XSS = `<img src=x onerror="window.__xss=1">`;

let rig: AgentsRig;
/** One browser for the suite (console-suite.ts). */
const shared = suiteBrowser();

t.before(async () => {
  if (missing) return;
  // The gateway knows only "main": the organisation file's agents are missing there.
  rig = await startAgentsRig();
  for (const title of [`Agent says ${XSS}`, "Budget reached"]) {
    const made = await rig.h.json("/api/notifications", { method: "POST", body: { type: "system", title, body: XSS } });
    assert.is(made.status, 201, JSON.stringify(made.body));
  }
  await shared.open();
});

t.after(async () => {
  if (missing) return;
  await shared.close();
  await rig.close();
});

async function withPage(fn: (page: Page) => Promise<void>, viewport?: { width: number; height: number }) {
  const page = await openConsole(shared.browser, rig.h, "/console/settings", viewport);
  try {
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    await fn(page);
  } finally {
    await page.close();
  }
}

const section = (page: Page, title: string) => page.locator("section", { has: page.getByRole("heading", { level: 2, name: title, exact: true }) });

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("plugins with versions, and the gateway's checks: connected, its address, the agents it does not know", async () => {
    await withPage(async (page) => {
      const plugins = section(page, "Plugins");
      await plugins.getByRole("row", { name: /settings/ }).first().waitFor();
      assert.match(await plugins.getByRole("row", { name: /^settings/ }).innerText(), "1.0.0");
      const gateway = section(page, "Gateway");
      await gateway.getByText("connected").first().waitFor();
      assert.match(await gateway.innerText(), rig.gw.url);
      assert.match(await gateway.getByRole("listitem").filter({ hasText: "does not know" }).innerText(), /odin.*thor/);
      assert.equal(describeViolations(await seriousViolations(page)), "");
    });
  });

  t("notifications: text stays text, one marked read, one dismissed", async () => {
    await withPage(async (page) => {
      const notifications = section(page, "Notifications");
      await notifications.getByText(`Agent says ${XSS}`).waitFor();
      assert.is(await page.evaluate("window.__xss"), undefined);
      assert.is(await page.locator("img[src=x]").count(), 0);
      await notifications.getByText("2 unread").waitFor();
      await notifications.getByRole("button", { name: "Mark read: Budget reached" }).click();
      await notifications.getByText("1 unread").waitFor();
      await notifications.getByRole("button", { name: "Dismiss: Budget reached" }).click();
      await notifications.getByText("Budget reached").waitFor({ state: "detached" });
      const left = await rig.h.json("/api/notifications");
      assert.equal(left.body.notifications.map((n: { title: string }) => n.title), [`Agent says ${XSS}`]);
    });
  });

  t("autopilot goals: add, pause, delete after confirming", async () => {
    await withPage(async (page) => {
      const goals = section(page, "Autopilot goals");
      const form = goals.getByRole("form", { name: "Add an autopilot goal" });
      await form.getByLabel("Title").fill("Ship the console");
      await form.getByLabel("Priority").selectOption("critical");
      await form.getByRole("button", { name: "Add goal" }).click();
      await goals.getByRole("row", { name: /Ship the console/ }).getByText("critical").waitFor();
      await goals.getByRole("button", { name: "Pause goal Ship the console" }).click();
      await goals.getByRole("row", { name: /Ship the console/ }).getByText("paused").waitFor();
      await goals.getByRole("button", { name: "Delete goal Ship the console" }).click();
      await goals.getByRole("button", { name: "Yes, delete" }).click();
      await goals.getByText("No goals yet.").waitFor();
    });
  });

  t("key-value settings: set a JSON value, a secret-like name refused with its code, delete", async () => {
    await withPage(async (page) => {
      const values = section(page, "Key-value settings");
      const form = values.getByRole("form", { name: "Set a setting" });
      await form.getByLabel("Key").fill("api_key");
      await form.getByLabel("Value").fill("s3cret");
      await form.getByRole("button", { name: "Save setting" }).click();
      await form.getByRole("alert").getByText("SETTING_SECRET_NAME").waitFor();
      await form.getByLabel("Key").fill("ui.theme");
      await form.getByLabel("Value").fill(`{"mode":"dark"}`);
      await form.getByRole("button", { name: "Save setting" }).click();
      await values.getByRole("row", { name: /ui\.theme/ }).getByText(`{"mode":"dark"}`).waitFor();
      assert.equal((await rig.h.json("/api/settings/ui.theme")).body.value, { mode: "dark" });
      await values.getByRole("button", { name: "Delete setting ui.theme" }).click();
      await values.getByRole("button", { name: "Yes, delete" }).click();
      await values.getByText("No settings yet.").waitFor();
      assert.is((await rig.h.json("/api/settings/ui.theme")).status, 404);
    });
  });

  t("at 390 px wide the page does not scroll sideways", async () => {
    await withPage(async (page) => {
      await section(page, "Plugins").locator("table.data").waitFor();
      assert.ok((await page.evaluate("document.documentElement.scrollWidth")) as number <= 390);
    }, { width: 390, height: 800 });
  });
}

t.run();
