// The panels for routes other plugins provide: agent health and usage light up from the
// spec's shapes when the routes exist (here served by a stand-in plugin), agent-written
// ids stay text.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../helpers/start-test-host.ts";
import { chromiumMissing, signedInPage, withBrowser } from "./browser.ts";
import { builtInsWithoutPanelRoutes, SAMPLE_AGENT_WITH_MARKUP, samplePanelsPlugin } from "./sample-panels.ts";

const t = suite("dashboard panels in a browser");
const missing = chromiumMissing();

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("agent health and usage light up when their routes exist", () =>
    withTestHost({ plugins: builtInsWithoutPanelRoutes(), extraPlugins: [samplePanelsPlugin] }, (h) =>
      withBrowser(async (browser) => {
        const page = await signedInPage(browser, h);
        const health = page.locator("#health-body");
        await health.locator("li[data-state='active']").getByText("writer").waitFor();
        assert.is(await health.locator(".unavailable").count(), 0);
        assert.match((await health.textContent())!, "connected");
        assert.is(await health.locator("li[data-state='offline'] .agent-id").textContent(), SAMPLE_AGENT_WITH_MARKUP);
        assert.is(await page.locator("img[src='x']").count(), 0);
        const usage = page.locator("#usage-body");
        await usage.locator("dd").getByText("$1.57").waitFor();
        assert.match((await usage.textContent())!, /120,400/);
      }),
    ));
}

t.run();
