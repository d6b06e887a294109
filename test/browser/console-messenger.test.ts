// The Messenger console page in a real Chromium against a real host and the local Telegram
// fake: unconfigured (mode off, the secrets missing by name, a link to the Vault), the secrets
// stored and the mode changing live, a webhook update and a pushed approval arriving live, a
// push Telegram refuses shown with its code and message (the message as text: it carries the
// planted XSS string), the accessibility check and 390 px.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { removeHome, startTestHost } from "../helpers/start-test-host.ts";
import { BOT_TOKEN, startTelegramFake, type TelegramFake } from "../helpers/platform-fakes/telegram.ts";
import { configure, deliver, message, messengerOptions, requestApproval } from "../plugins/messenger/helpers.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, seriousViolations } from "./console.ts";
import { assertFitsWidth, assertNoXss, consoleSuite, XSS } from "./console-suite.ts";

const t = suite("console: messenger");
const missing = chromiumMissing();
const SEND = `POST /bot${BOT_TOKEN}/sendMessage`;
let tg: TelegramFake;

const s = consoleSuite(t, async () => {
  tg = await startTelegramFake();
  const host = await startTestHost(messengerOptions(tg.url));
  return { host, stop: async () => (await host.stop(), await tg.close(), removeHome(host.home)) };
});

const section = (page: Page, title: string) => page.getByRole("region", { name: title });

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("unconfigured: mode off, every secret missing by name, the way to the Vault; nothing received yet", async () => {
    await s.withPage("/console/messenger", async (page) => {
      await page.getByRole("heading", { level: 1, name: "Messenger" }).waitFor();
      const connection = section(page, "Connection");
      await connection.getByText("off", { exact: true }).waitFor();
      const secrets = connection.getByRole("list", { name: "Messenger secrets in the vault" });
      for (const name of ["TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET", "TELEGRAM_CHAT_ID"]) {
        assert.match(await secrets.getByRole("listitem").filter({ hasText: name }).innerText(), "missing");
      }
      assert.is(await connection.getByRole("link", { name: "Vault page" }).getAttribute("href"), "/console/vault");
      await section(page, "Last update").getByText("No update has reached the webhook yet.").waitFor();
      await section(page, "Media").getByText("No photo or document has been saved.").waitFor();
      assert.equal(describeViolations(await seriousViolations(page)), "");
    });
  });

  t("live: the secrets stored turn the mode to webhook; an update, a pushed approval and a refused push arrive with its code", async () => {
    await s.withPage("/console/messenger", async (page) => {
      const connection = section(page, "Connection");
      await connection.getByText("off", { exact: true }).waitFor();
      await configure(s.host());
      await connection.getByText("webhook", { exact: true }).waitFor();
      assert.match(await connection.innerText(), "stored");
      assert.not.match(await page.content(), BOT_TOKEN);

      const update = message({ text: "/status" });
      await deliver(s.host(), update);
      const last = section(page, "Last update");
      await last.getByText("a command").waitFor();
      assert.match(await last.innerText(), String(update.update_id));
      assert.match(await last.innerText(), "handled");

      const notices = section(page, "Approval notices");
      await requestApproval(s.host(), "Pushed");
      await notices.getByText(/^1 · last/).waitFor();

      // Telegram's refusal: its status and description (the planted string) shown as text.
      tg.script(SEND, { status: 403, json: { ok: false, error_code: 403, description: `Forbidden: bot was blocked ${XSS}` } });
      const refused = await requestApproval(s.host(), "Refused");
      const failure = page.getByRole("group", { name: "Last failed notice" });
      await failure.getByText("HTTP 403", { exact: true }).waitFor();
      assert.match(await failure.innerText(), `sendMessage: HTTP 403: Forbidden: bot was blocked ${XSS}`);
      assert.is(await failure.getByRole("link", { name: "Open the approval" }).getAttribute("href"), `/console/approvals/${refused}`);
      await assertNoXss(page);
      assert.equal(describeViolations(await seriousViolations(page)), "");
    });
  });

  t("at 390 px wide the page does not scroll sideways", async () => {
    await s.withPage("/console/messenger", async (page) => {
      await page.getByRole("group", { name: "Last failed notice" }).waitFor();
      await assertFitsWidth(page);
      assert.ok((await page.evaluate("document.documentElement.scrollWidth")) as number <= 390);
      assert.equal(describeViolations(await seriousViolations(page)), "");
    }, { width: 390, height: 800 });
  });
}

t.run();
