// The Vault console page in a real Chromium against a real host: a secret added in the form is
// listed by name and category and its value appears nowhere; revealing it needs a confirmation,
// shows the value with a countdown, and hides it again when the countdown ends (shortened with
// ?revealSeconds=, waited for without timing it) or on "Hide now"; update, inject and delete
// (with a confirmation); refusals with their codes (a name with markup, a protected variable, a
// locked vault); agent-written descriptions stay text; the accessibility check; 390 px wide.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { removeHome, startTestHost, withTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { chromiumMissing } from "./browser.ts";
import { describeViolations, seriousViolations } from "./console.ts";
import { assertFitsWidth, assertNoXss, suiteBrowser, withConsolePage } from "./console-suite.ts";

const t = suite("console: vault");
const missing = chromiumMissing();
const XSS = `<img src=x onerror="window.__xss=1">`;
const VALUE = "ghp-value-that-stays-hidden-0123";

let h: TestHost;
const suiteChrome = suiteBrowser();

t.before(async () => {
  if (missing) return;
  h = await startTestHost({ env: { VAULT_KEY: "console-vault-test-passphrase" } });
  await suiteChrome.open();
});

t.after(async () => {
  if (missing) return;
  await suiteChrome.close();
  await h.stop();
  removeHome(h.home);
});

const withPage = (path: string, fn: (page: Page) => Promise<void>, viewport?: { width: number; height: number }, host = h) => withConsolePage(suiteChrome.browser, host, path, fn, viewport);

async function store(name: string, value: string, extra: Record<string, unknown> = {}) {
  const res = await h.json("/api/vault", { method: "POST", body: { name, value, ...extra } });
  assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
}

const row = (page: Page, name: string) => page.getByRole("row").filter({ has: page.locator("code.secret-name", { hasText: name }) });
const pageText = (page: Page) => page.evaluate("document.body.innerText") as Promise<string>;

if (missing) {
  t("chromium is installed", () => assert.unreachable(missing));
} else {
  t("a secret added in the form is listed by name and category; its value appears nowhere; a name with markup is refused", () =>
    withPage("/console/vault", async (page) => {
      const form = page.getByRole("form", { name: "Add a secret" });
      await form.getByLabel("Name").fill(XSS);
      await form.getByLabel("Value").fill(VALUE);
      await form.getByRole("button", { name: "Add secret" }).click();
      await form.getByRole("alert").getByText(/^VALIDATION_FAILED: /).waitFor();
      await form.getByLabel("Name").fill("GITHUB_TOKEN");
      await form.getByLabel("Category").fill("code");
      await form.getByLabel("Description (optional)").fill(`Pushes ${XSS}`);
      await form.getByRole("button", { name: "Add secret" }).click();
      const added = row(page, "GITHUB_TOKEN");
      await added.getByText("code", { exact: true }).waitFor();
      await added.getByText(`Pushes ${XSS}`).waitFor();
      assert.not.match(await pageText(page), VALUE);
      assert.is(await form.getByLabel("Value").inputValue(), "", "the form is cleared after saving");
      await assertNoXss(page);
    }));

  t("reveal needs a confirmation, shows the value with a countdown, and hides it when the countdown ends", async () => {
    await store("REVEAL_ME", VALUE);
    await withPage("/console/vault?revealSeconds=2", async (page) => {
      const secret = row(page, "REVEAL_ME");
      await secret.getByRole("button", { name: "Reveal value of REVEAL_ME" }).click();
      // The first click only asks.
      assert.not.match(await pageText(page), VALUE);
      await secret.getByRole("button", { name: "Cancel" }).click();
      await secret.getByRole("button", { name: "Reveal value of REVEAL_ME" }).click();
      await secret.getByRole("button", { name: "Yes, reveal value" }).click();
      const value = secret.locator("code.secret-value");
      await value.waitFor();
      assert.is(await value.textContent(), VALUE);
      assert.match((await secret.locator(".countdown").textContent())!, /^Hidden in \d s$/);
      // Hidden again on its own: waited for (generously bounded), never timed.
      await value.waitFor({ state: "detached", timeout: 30_000 });
      assert.not.match(await pageText(page), VALUE);
      await secret.getByRole("button", { name: "Reveal value of REVEAL_ME" }).waitFor();
    });
  });

  t("Hide now hides a revealed value at once (default 30 s countdown)", async () => {
    await store("HIDE_ME", "hide-me-value-42");
    await withPage("/console/vault", async (page) => {
      const secret = row(page, "HIDE_ME");
      await secret.getByRole("button", { name: "Reveal value of HIDE_ME" }).click();
      await secret.getByRole("button", { name: "Yes, reveal value" }).click();
      await secret.getByText("hide-me-value-42").waitFor();
      assert.match((await secret.locator(".countdown").textContent())!, /^Hidden in \d+ s$/);
      await secret.getByRole("button", { name: "Hide now the value of HIDE_ME" }).click();
      await secret.locator("code.secret-value").waitFor({ state: "detached" });
      assert.not.match(await pageText(page), "hide-me-value-42");
    });
  });

  t("update replaces the value; inject refuses a protected variable with its code and accepts another; delete asks first", async () => {
    await store("ROTATE_ME", "old-value-1");
    await withPage("/console/vault", async (page) => {
      const secret = row(page, "ROTATE_ME");
      await secret.getByRole("button", { name: "Update ROTATE_ME" }).click();
      const update = secret.getByRole("form", { name: "Update ROTATE_ME" });
      await update.getByLabel("New value of ROTATE_ME").fill("new-value-2");
      await update.getByRole("button", { name: "Save ROTATE_ME" }).click();
      await update.waitFor({ state: "detached" });
      await secret.getByRole("button", { name: "Reveal value of ROTATE_ME" }).click();
      await secret.getByRole("button", { name: "Yes, reveal value" }).click();
      await secret.getByText("new-value-2").waitFor();

      const inject = page.getByRole("form", { name: "Inject a secret" });
      await inject.getByLabel("Secret").selectOption("ROTATE_ME");
      await inject.getByLabel("Environment variable").fill("PATH");
      await inject.getByRole("button", { name: "Inject secret" }).click();
      await inject.getByRole("alert").getByText(/^VAULT_ENV_VAR_PROTECTED: /).waitFor();
      await inject.getByLabel("Environment variable").fill("ROTATED_TOKEN");
      await inject.getByRole("button", { name: "Inject secret" }).click();
      await page.getByRole("status").getByText("ROTATE_ME is now ROTATED_TOKEN").waitFor();

      await secret.getByRole("button", { name: "Delete secret ROTATE_ME" }).click();
      await secret.getByRole("button", { name: "Yes, delete secret" }).click();
      await secret.waitFor({ state: "detached" });
    });
    const names = ((await h.json("/api/vault")).body.secrets as { name: string }[]).map((secret) => secret.name);
    assert.not.ok(names.includes("ROTATE_ME"));
  });

  t("a locked vault (no passphrase) shows VAULT_LOCKED", () =>
    withTestHost({}, (locked) =>
      withPage("/console/vault", async (page) => {
        await page.getByRole("region", { name: "Secrets" }).getByRole("alert").getByText(/^VAULT_LOCKED: /).waitFor();
      }, undefined, locked),
    ));

  t("no serious accessibility violation (with a value revealed too), and usable at 390 px wide", async () => {
    await store("A11Y_KEY", "a11y-value-with-a-rather-long-body-that-must-wrap-on-a-narrow-screen-0123456789", { description: "Checked by axe" });
    for (const viewport of [undefined, { width: 390, height: 844 }]) {
      await withPage("/console/vault", async (page) => {
        const secret = row(page, "A11Y_KEY");
        await secret.waitFor();
        assert.equal(describeViolations(await seriousViolations(page)), "");
        await secret.getByRole("button", { name: "Reveal value of A11Y_KEY" }).click();
        await secret.getByRole("button", { name: "Yes, reveal value" }).click();
        await secret.locator("code.secret-value").waitFor();
        assert.equal(describeViolations(await seriousViolations(page)), "");
        await assertFitsWidth(page);
      }, viewport);
    }
  });
}

t.run();
