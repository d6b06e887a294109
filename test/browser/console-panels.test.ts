// The panels plugins contribute to the home page (CONSOLE_PANELS): agent health and usage
// light up from the spec's shapes (routes served by a stand-in plugin, the agents and usage
// plugins' panel modules), each in its own region named by its title; agents that need the
// human come first and stand out, and one the gateway does not know is never shown as a
// healthy idle one; agent-written ids stay text; a third-party panel is drawn at load and
// again on the events it names.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../helpers/start-test-host.ts";
import { chromiumMissing } from "./browser.ts";
import { suiteBrowser, withConsolePage } from "./console-suite.ts";
import { describeViolations, seriousViolations } from "./console.ts";
import { builtInsWithoutPanelRoutes, notesPanelPlugin, SAMPLE_AGENT_WITH_MARKUP, samplePanelsPlugins } from "./sample-panels.ts";

const t = suite("console panels in a browser");
const missing = chromiumMissing();
/** One browser for the suite (console-suite.ts); each test has its own host, so its own sign-in. */
const shared = suiteBrowser();
t.before(async () => void (missing || (await shared.open())));
t.after(async () => void (missing || (await shared.close())));

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("agent health and usage light up in their own regions; stuck, offline and unregistered agents come first and stand out", () =>
    withTestHost({ plugins: builtInsWithoutPanelRoutes(), extraPlugins: samplePanelsPlugins }, (h) =>
      withConsolePage(shared.browser, h, "/", async (page) => {
        const health = page.getByRole("region", { name: "Agent health" });
        await health.locator("li[data-state='active']").getByText("writer").waitFor();
        assert.is(await health.getByRole("heading", { name: "Agent health" }).count(), 1);
        assert.match((await health.textContent())!, "connected");
        assert.is(await health.locator("li[data-state='offline'] .agent-id").textContent(), SAMPLE_AGENT_WITH_MARKUP);
        assert.is(await page.locator("img[src='x']").count(), 0);
        // The gateway does not know "ghost": shown as unregistered, never as idle.
        const ghost = health.locator("li").filter({ has: page.locator(".agent-id", { hasText: /^ghost$/ }) });
        assert.is(await ghost.getAttribute("data-state"), "unregistered");
        assert.is(await ghost.locator(".badge").textContent(), "not registered with the gateway");
        assert.ok(await ghost.locator(".badge").evaluate((el) => el.classList.contains("bad")), "it stands out");
        assert.is(await health.locator("li[data-state='idle'] .agent-id").allTextContents().then((ids) => ids.join(",")), "napper", "only the agent the gateway knows is idle");
        // Those needing the human first, in order: stuck, unregistered, offline; then idle and active.
        assert.equal(await health.locator("li").evaluateAll((items) => items.map((item) => item.getAttribute("data-state"))), ["stuck", "unregistered", "offline", "idle", "active"]);
        assert.ok(await health.locator("li[data-state='stuck'] .badge").evaluate((el) => el.classList.contains("bad")));
        assert.ok(await health.locator("li[data-state='offline'] .badge").evaluate((el) => el.classList.contains("warn")));
        assert.match((await health.textContent())!, "3 need attention");
        const usage = page.getByRole("region", { name: "Usage today" });
        await usage.locator("dd").getByText("$1.57").waitFor();
        assert.match((await usage.textContent())!, /120,400/);
        assert.equal(describeViolations(await seriousViolations(page)), "");
      }),
    ));

  t("a third-party panel gets its own region, titled as text, and is drawn again on the events it names", () =>
    withTestHost({ extraPlugins: [notesPanelPlugin] }, (h) =>
      withConsolePage(shared.browser, h, "/", async (page) => {
        const panel = page.getByRole("region", { name: "Notes <b>panel</b>" });
        await panel.locator(".drawn[data-drawn]").waitFor();
        assert.is(await page.locator("main b").count(), 0, "the title is text, not markup");
        const before = Number(await panel.locator(".drawn").getAttribute("data-drawn"));
        const task = await h.json("/api/tasks", { method: "POST", body: { title: "Wake the panel" } });
        assert.is(task.status, 201);
        // The count only grows: another value means the panel was drawn again.
        await panel.locator(`.drawn:not([data-drawn="${before}"])`).waitFor();
      }),
    ));
}

t.run();
