// The dashboard's files over plain HTTP: the page and its modules with the host's CSP (no
// 'unsafe-inline'), and nothing outside its fixed file list.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../helpers/start-test-host.ts";

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

t.run();
