// A browser session lives in the server's memory: after a restart the tab still holds its
// CSRF secret, but the first decision in the inbox is refused; the page shows the code and
// asks to sign in again, and a new login link makes deciding work.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../helpers/start-test-host.ts";
import { chromiumMissing, withBrowser } from "./browser.ts";
import { openConsole, waitForConsole } from "./console.ts";

const t = suite("console session in a browser");
const missing = chromiumMissing();

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("after a server restart a decision is refused with the session code, the sign-in banner returns, and a new link signs in", () =>
    withTestHost(async (first) => {
      const port = Number(new URL(first.url).port);
      await withBrowser(async (browser) => {
        const page = await openConsole(browser, first, "/console/approvals");
        assert.is(await page.locator("#signin-state").textContent(), "Signed in");
        // Same port, so the page's origin (and its stored secret) stay the same.
        const h = await first.restart({ port });
        const { approval } = (await h.json("/api/approvals", { method: "POST", body: { title: "After restart", type: "deploy", requestedBy: "agent-a", context: "" } })).body;
        const card = page.locator(`article.approval[data-id="${approval.id}"]`);
        await card.waitFor(); // the stream reconnected and the inbox reloaded
        await card.getByRole("button", { name: "Approve" }).click();
        await card.locator(".error").getByText("SESSION_TOKEN_REQUIRED").waitFor();
        await page.locator("#signin-state").getByText("Not signed in").waitFor();
        assert.ok(await page.locator("#signin-banner").isVisible());
        assert.is(await page.evaluate<string | null>(`sessionStorage.getItem("muster.csrf")`), null, "the dead secret is forgotten");
        assert.is((await h.json(`/api/approvals/${approval.id}`)).body.approval.status, "pending");

        await page.goto(h.host.loginLink().url);
        await waitForConsole(page);
        await page.goto(`${h.url}/console/approvals`);
        await waitForConsole(page);
        await card.getByRole("button", { name: "Approve" }).click();
        await card.locator(".outcome").getByText("Approved").waitFor();
        assert.is((await h.json(`/api/approvals/${approval.id}`)).body.approval.status, "approved");
      });
    }));
}

t.run();
