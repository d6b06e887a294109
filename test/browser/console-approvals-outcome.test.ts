// The inbox against a host wired to the fake gateway and the LinkedIn fake: the gateway's own
// exec approval sits in the same list as the app's, filtered by its kind, and approving it
// settles it in the gateway; a publish whose outbox outcome is `unknown` is shown as unknown,
// never as a success, in the inbox and in the home page's "Failed sends".
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Browser } from "playwright-core";
import { startRig, type Rig } from "../plugins/chat/chat-helpers.ts";
import { EXEC_REQUEST, approvalFor } from "../plugins/gateway-approvals/rig.ts";
import { publishingOptions, setSecret } from "../plugins/publishing/helpers.ts";
import { LINKEDIN_TOKEN_VALUE, startLinkedInFake, type LinkedInFake } from "../helpers/platform-fakes/linkedin.ts";
import { scaled } from "../helpers/time-scale.ts";
import { waitUntil } from "../helpers/wait.ts";
import { suiteBrowser } from "./console-suite.ts";
import { chromiumMissing } from "./browser.ts";
import { openConsole } from "./console.ts";

const t = suite("console: approvals of the gateway and of publishing");
const missing = chromiumMissing();
const OWNER = "sam";

let rig: Rig;
let li: LinkedInFake;
/** One browser for the suite (console-suite.ts). */
const shared = suiteBrowser();

t.before(async () => {
  if (missing) return;
  li = await startLinkedInFake();
  rig = await startRig({ host: publishingOptions({ linkedin: li.url }, { requestTimeoutMs: scaled(300), maxAttempts: 1 }, { config: { owner: OWNER } }) });
  await setSecret(rig.h, "LINKEDIN_ACCESS_TOKEN", LINKEDIN_TOKEN_VALUE);
  await setSecret(rig.h, "LINKEDIN_PERSON_URN", "urn:li:person:782bbtaQ");
  await shared.open();
});

t.after(async () => {
  if (missing) return;
  await shared.close();
  await rig.close();
  await li.close();
});

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("the gateway's exec approval is in the same list as the app's, found by its kind, and approving it allows it once in the gateway", async () => {
    const { h, gw } = rig;
    const app = (await h.json("/api/approvals", { method: "POST", body: { title: "Send the report", type: "report.send", requestedBy: "writer", context: "" } })).body.approval;
    gw.raiseApproval("exec", EXEC_REQUEST, { id: "exec-console" });
    const fromGateway = await approvalFor(h, "exec-console");
    const page = await openConsole(shared.browser, h, "/console/approvals");
    try {
      const gatewayCard = page.locator(`article.approval[data-id="${fromGateway.id}"]`);
      const appCard = page.locator(`article.approval[data-id="${app.id}"]`);
      await gatewayCard.waitFor();
      await appCard.waitFor();
      assert.match((await gatewayCard.locator(".approval-head").textContent())!, "Gateway exec");
      assert.match((await gatewayCard.textContent())!, "Asked by main");
      await page.getByLabel("Kind").selectOption({ label: "Gateway exec" });
      await appCard.waitFor({ state: "detached" });
      await gatewayCard.locator("summary").click();
      assert.match((await gatewayCard.locator("pre").textContent())!, `"command": "touch approved.txt"`);
      await gatewayCard.getByRole("button", { name: "Approve" }).click();
      await gatewayCard.locator(".outcome").getByText(`Approved by ${OWNER}`).waitFor();
      await gatewayCard.locator("[data-execution='succeeded']").waitFor();
      await waitUntil(() => gw.requests("exec.approval.resolve").some((r) => r.params?.id === "exec-console" && r.params?.decision === "allow-once"), {
        timeoutMs: 10_000,
        label: "the gateway was told allow-once",
      });
    } finally {
      await page.close();
    }
  });

  t("a publish whose outbox outcome is unknown shows as unknown, never as a success; Home lists it under Failed sends", async () => {
    const { h } = rig;
    li.planPosts("hang");
    const requested = await h.json("/api/professional-network", { method: "POST", body: { text: "Lost in transit" } });
    assert.is(requested.status, 202, JSON.stringify(requested.body));
    const id = requested.body.approval.id as string;
    const page = await openConsole(shared.browser, h, "/console/approvals");
    try {
      const card = page.locator(`article.approval[data-id="${id}"]`);
      await card.getByRole("button", { name: "Approve" }).click();
      await card.locator(".outcome").getByText(`Approved by ${OWNER}`).waitFor();
      // Queued first, then the platform's answer never comes: the outbox says unknown.
      await card.locator("[data-outbox-status='unknown']").getByText("unknown: the platform may or may not have the post").waitFor({ timeout: 60_000 });
      assert.not.match((await card.textContent())!, /succeeded|published/i, "nothing claims success");
      assert.is((await h.json(`/api/approvals/${id}`)).body.approval.executionStatus, "succeeded", "the approval's own status says only that the action ran");

      await page.goto(`${h.url}/`);
      const panel = page.getByRole("region", { name: "Failed sends" });
      const row = panel.locator("li[data-status='unknown']");
      await row.waitFor();
      assert.is(await row.getByRole("link").getAttribute("href"), `/console/approvals/${id}`);
      assert.match((await panel.textContent())!, "1 unknown");
    } finally {
      await page.close();
    }
  });
}

t.run();
