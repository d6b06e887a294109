// The panels plugins contribute (CONSOLE_PANELS): agent health and usage light up from the
// spec's shapes (routes served by a stand-in plugin, the agents and usage plugins' panel
// modules), each in its own region named by its title; agent-written ids stay text; a
// third-party panel is drawn at load and again on the events it names.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../helpers/start-test-host.ts";
import { chromiumMissing, signedInPage, withBrowser } from "./browser.ts";
import { builtInsWithoutPanelRoutes, notesPanelPlugin, SAMPLE_AGENT_WITH_MARKUP, samplePanelsPlugin } from "./sample-panels.ts";

const t = suite("dashboard panels in a browser");
const missing = chromiumMissing();

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("agent health and usage light up in their own regions when their routes exist", () =>
    withTestHost({ plugins: builtInsWithoutPanelRoutes(), extraPlugins: [samplePanelsPlugin] }, (h) =>
      withBrowser(async (browser) => {
        const page = await signedInPage(browser, h);
        const health = page.getByRole("region", { name: "Agent health" });
        await health.locator("li[data-state='active']").getByText("writer").waitFor();
        assert.is(await health.getByRole("heading", { name: "Agent health" }).count(), 1);
        assert.match((await health.textContent())!, "connected");
        assert.is(await health.locator("li[data-state='offline'] .agent-id").textContent(), SAMPLE_AGENT_WITH_MARKUP);
        assert.is(await page.locator("img[src='x']").count(), 0);
        const usage = page.getByRole("region", { name: "Usage today" });
        await usage.locator("dd").getByText("$1.57").waitFor();
        assert.match((await usage.textContent())!, /120,400/);
      }),
    ));

  t("a third-party panel gets its own region, titled as text, and is drawn again on the events it names", () =>
    withTestHost({ extraPlugins: [notesPanelPlugin] }, (h) =>
      withBrowser(async (browser) => {
        const page = await signedInPage(browser, h);
        const panel = page.getByRole("region", { name: "Notes <b>panel</b>" });
        await panel.locator(".drawn[data-drawn]").waitFor();
        assert.is(await page.locator("aside b").count(), 0, "the title is text, not markup");
        const before = Number(await panel.locator(".drawn").getAttribute("data-drawn"));
        const task = await h.json("/api/tasks", { method: "POST", body: { title: "Wake the panel" } });
        assert.is(task.status, 201);
        // The count only grows: another value means the panel was drawn again.
        await panel.locator(`.drawn:not([data-drawn="${before}"])`).waitFor();
      }),
    ));
}

t.run();
