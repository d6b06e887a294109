// The dashboard's files over plain HTTP: the page and its modules with the host's CSP (no
// 'unsafe-inline'), and nothing outside its fixed file list.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PANELS } from "../../plugins/dashboard/tokens.ts";
import { builtInPlugins } from "../../plugins/built-in.ts";
import { withTestHost } from "../helpers/start-test-host.ts";
import { startErrorCode } from "../helpers/start-error.ts";
import { notesPanelPlugin } from "./sample-panels.ts";

const t = suite("dashboard files");

t("the page and its modules are served with the CSP, no inline script or style", () =>
  withTestHost(async (h) => {
    const page = await h.request("/");
    assert.is(page.status, 200);
    assert.match(page.headers.get("content-type")!, "text/html");
    const csp = page.headers.get("content-security-policy")!;
    assert.match(csp, "script-src 'self'");
    assert.match(csp, "style-src 'self'");
    assert.not.match(csp, "unsafe-inline");
    const html = await page.text();
    assert.not.match(html, /<script(?![^>]*\ssrc=)[^>]*>/, "no inline script");
    assert.not.match(html, /<style|\sstyle=|\son[a-z]+=/i, "no inline style or handler");
    for (const [file, type] of [["app.js", "text/javascript"], ["style.css", "text/css"], ["icon.svg", "image/svg+xml"]] as const) {
      const res = await h.request(`/dashboard/${file}`);
      assert.is(res.status, 200, file);
      assert.match(res.headers.get("content-type")!, type);
      assert.is(res.headers.get("x-content-type-options"), "nosniff");
    }
  }));

t("unknown files are 404 with a code; anything that is not a plain file name is refused", () =>
  withTestHost(async (h) => {
    const unknown = await h.json("/dashboard/nope.js");
    assert.is(unknown.status, 404);
    assert.is(unknown.body.error.code, "DASHBOARD_ASSET_NOT_FOUND");
    for (const path of ["/dashboard/..%2Fpackage.json", "/dashboard/index.html", "/dashboard/app.ts", "/dashboard/%2e%2e%2fapp.js", "/dashboard/App.js"]) {
      const res = await h.json(path);
      assert.ok(res.status === 400 || res.status === 404, `${path}: ${res.status}`);
      assert.ok(["VALIDATION_FAILED", "DASHBOARD_ASSET_NOT_FOUND", "NOT_FOUND"].includes(res.body.error.code), `${path}: ${res.body.error.code}`);
    }
    const traversal = await h.request("/dashboard/../package.json");
    assert.ok(traversal.status >= 400, "no file outside the dashboard");
    assert.not.match(await traversal.text(), "\"devDependencies\"");
    const post = await h.json("/", { method: "POST", body: {} });
    assert.is(post.status, 405);
  }));

t("a foreign Origin is refused on the page like on the API", () =>
  withTestHost(async (h) => {
    const res = await h.json("/", { headers: { origin: "http://evil.example" } });
    assert.is(res.status, 403);
    assert.is(res.body.error.code, "ORIGIN_NOT_ALLOWED");
  }));

t("GET /dashboard/panels lists the contributed panels; each module is served from its fixed file, like the other files", () =>
  withTestHost({ extraPlugins: [notesPanelPlugin] }, async (h) => {
    const listed = await h.json("/dashboard/panels");
    assert.is(listed.status, 200);
    const byKey = new Map((listed.body.panels as { plugin: string; id: string; events: string[] }[]).map((p) => [`${p.plugin}/${p.id}`, p]));
    assert.equal(byKey.get("notes-panel/drawn"), { plugin: "notes-panel", id: "drawn", title: "Notes <b>panel</b>", module: "/dashboard/plugins/notes-panel/drawn.js", events: ["work.task.*"] });
    assert.equal(byKey.get("agents/health"), { plugin: "agents", id: "health", title: "Agent health", module: "/dashboard/plugins/agents/health.js", events: [] });
    assert.equal(byKey.get("vault/names")?.events, ["vault.secret.*"]);
    assert.ok(byKey.has("usage/usage"));

    const module = await h.request("/dashboard/plugins/notes-panel/drawn.js");
    assert.is(module.status, 200);
    assert.is(module.headers.get("content-type"), "application/javascript; charset=utf-8");
    assert.match(module.headers.get("content-security-policy")!, "script-src 'self'");
    assert.is(module.headers.get("x-content-type-options"), "nosniff");
    assert.is(await module.text(), readFileSync(fileURLToPath(new URL("./fixtures/notes-panel.js", import.meta.url)), "utf8"));

    for (const path of ["/dashboard/plugins/notes-panel/other.js", "/dashboard/plugins/nobody/drawn.js", "/dashboard/plugins/agents/drawn.js"]) {
      const res = await h.json(path);
      assert.is(res.status, 404, path);
      assert.is(res.body.error.code, "DASHBOARD_ASSET_NOT_FOUND");
    }
    for (const path of ["/dashboard/plugins/notes-panel/..%2F..%2Fpackage.json", "/dashboard/plugins/..%2Fagents/health.js", "/dashboard/plugins/notes-panel/drawn.ts", "/dashboard/plugins/Notes/drawn.js"]) {
      const res = await h.json(path);
      assert.ok(res.status === 400 || res.status === 404, `${path}: ${res.status}`);
      assert.ok(["VALIDATION_FAILED", "DASHBOARD_ASSET_NOT_FOUND", "NOT_FOUND"].includes(res.body.error.code), `${path}: ${res.body.error.code}`);
    }
  }));

t("a panel whose module cannot be read, or with a bad id, stops the start with DASHBOARD_PANEL_INVALID", async () => {
  const withPanel = (panel: { id: string; module: string }) =>
    definePlugin({ id: "bad-panel", version: "1.0.0", host: "^1.0.0", dependsOn: ["dashboard"], contributions: [contribute(CONSOLE_PANELS, { title: "Bad", ...panel })] });
  const dashboard = builtInPlugins.filter((p) => p.id === "dashboard");
  const fixture = fileURLToPath(new URL("./fixtures/notes-panel.js", import.meta.url));
  for (const panel of [{ id: "gone", module: "/nonexistent/panel.js" }, { id: "../up", module: fixture }, { id: "css", module: fileURLToPath(new URL("../../plugins/dashboard/static/style.css", import.meta.url)) }]) {
    assert.is(await startErrorCode({ plugins: [...dashboard, withPanel(panel)] }), "DASHBOARD_PANEL_INVALID", panel.id);
  }
});

t.run();
