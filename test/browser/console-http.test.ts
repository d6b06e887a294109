// The console's files over plain HTTP: the page with the host's CSP plus only the import map's
// hash (no 'unsafe-inline'), its modules (TypeScript served as JavaScript), and nothing
// outside its fixed file list.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PANELS } from "../../plugins/dashboard/tokens.ts";
import { builtInPlugins } from "../../plugins/built-in.ts";
import { withTestHost } from "../helpers/start-test-host.ts";
import { startErrorCode } from "../helpers/start-error.ts";
import { staticImports } from "../../plugins/dashboard/services/module-preloads.ts";
import { chromiumMissing, withBrowser } from "./browser.ts";
import { openConsole, waitForConsole } from "./console.ts";
import { notesPanelPlugin } from "./sample-panels.ts";

const t = suite("console files");
const JS = "text/javascript; charset=utf-8";

t("the page is served with the host's CSP plus only the import map's hash; no other inline script or style", () =>
  withTestHost(async (h) => {
    const api = await h.request("/api/health");
    const apiCsp = api.headers.get("content-security-policy")!;
    assert.ok(apiCsp, "the host sets a policy");
    for (const path of ["/", "/console/approvals", "/console/approvals/some-id"]) {
      const page = await h.request(path);
      assert.is(page.status, 200, path);
      assert.match(page.headers.get("content-type")!, "text/html");
      assert.is(page.headers.get("x-content-type-options"), "nosniff");
      const csp = page.headers.get("content-security-policy")!;
      const html = await page.text();
      const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/g)];
      assert.is(inline.length, 1, "one inline script: the import map");
      assert.match(inline[0]![1]!, `type="importmap"`);
      const hash = `'sha256-${createHash("sha256").update(inline[0]![2]!).digest("base64")}'`;
      // The page's policy is the API's with the map's hash appended to script-src, nothing else.
      assert.is(csp, apiCsp.replace(/(script-src [^;]*)/, `$1 ${hash}`), path);
      assert.match(csp, "script-src 'self'");
      assert.match(csp, "style-src 'self'");
      assert.not.match(csp, "unsafe-inline");
      assert.not.match(csp, "unsafe-eval");
      assert.not.match(html, /<style|\sstyle=|\son[a-z]+=/i, "no inline style or handler");
    }
    for (const [file, type] of [["main.ts", JS], ["kit.ts", JS], ["vendor/preact.js", JS], ["style.css", "text/css"], ["icon.svg", "image/svg+xml"]] as const) {
      const res = await h.request(`/dashboard/${file}`);
      assert.is(res.status, 200, file);
      assert.match(res.headers.get("content-type")!, type);
      assert.is(res.headers.get("x-content-type-options"), "nosniff");
      assert.match(res.headers.get("content-security-policy")!, "script-src 'self'");
    }
  }));

t("TypeScript modules are served as JavaScript, their types stripped", () =>
  withTestHost(async (h) => {
    const source = readFileSync(fileURLToPath(new URL("../../plugins/approvals/console/pending-panel.ts", import.meta.url)), "utf8");
    assert.match(source, "element: HTMLElement", "the source has types");
    const res = await h.request("/dashboard/plugins/approvals/pending-panel.ts");
    assert.is(res.status, 200);
    assert.is(res.headers.get("content-type"), JS);
    const served = await res.text();
    assert.match(served, /function mountPendingPanel\(element\)/);
    assert.match(served, /export\s*\{\s*mountPendingPanel as default\s*\}/);
    assert.not.match(served, ": HTMLElement");
    const page = await h.request("/dashboard/plugins/approvals/approvals-page.ts");
    assert.is(page.headers.get("content-type"), JS);
    assert.not.match(await page.text(), /^import type|: ApprovalSummary\b/m);
  }));

t("each address lists the modules it will import as modulepreload links: the console's, its page's or the home panels', none it will not", () =>
  withTestHost(async (h) => {
    const preloaded = async (path: string) => {
      const html = await (await h.request(path)).text();
      assert.ok(html.indexOf('type="importmap"') < html.indexOf("modulepreload"), `${path}: the import map comes before any module load`);
      return [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((match) => match[1]!);
    };
    // Few, larger modules (console-bundles.ts): the shell, the kit, their shared chunk, the libraries, the SDK, the page's one module.
    const console = ["/dashboard/main.ts", "/dashboard/kit.ts", "/dashboard/vendor/preact.js", "/dashboard/vendor/preact-hooks.js", "/dashboard/vendor/htm.js", "/dashboard/sdk/core.ts"];
    const shared = (urls: string[]) => urls.filter((url) => /^\/dashboard\/shared-[a-z0-9]+\.ts$/.test(url));
    const tasks = await preloaded("/console/tasks/some-task");
    for (const url of [...console, "/dashboard/plugins/work/tasks-page.ts"]) assert.ok(tasks.includes(url), `/console/tasks preloads ${url}`);
    assert.is(shared(tasks).length, 1, "the shell's and the kit's shared chunk");
    for (const inlined of ["/dashboard/app.ts", "/dashboard/router.ts", "/dashboard/ui/basics.ts", "/dashboard/sdk/client.ts", "/dashboard/plugins/work/task-list.ts", "/dashboard/plugins/work/inline-edit.ts"]) {
      assert.not.ok(tasks.includes(inlined), `${inlined} is inlined in a bundle, not loaded on its own`);
    }
    assert.ok(tasks.length <= 9, `a few modules, not ~40: ${tasks.join(" ")}`);
    assert.not.ok(tasks.some((url) => url.includes("/plugins/boards/") || url.includes("/plugins/approvals/")), "no other page's modules");
    const boards = await preloaded("/console/boards");
    assert.ok(boards.includes("/dashboard/plugins/boards/boards-page.ts"));
    assert.not.ok(boards.includes("/dashboard/plugins/boards/board-screen.ts"), "the page's own components are inlined in its module");
    const home = await preloaded("/");
    for (const url of [...console, "/dashboard/plugins/approvals/pending-panel.ts"]) assert.ok(home.includes(url), `/ preloads ${url}`);
    assert.not.ok(home.includes("/dashboard/feed.ts"), "the feed is part of the shell's module");
    assert.not.ok(home.some((url) => url.includes("-page.ts")), "the home page preloads no page");
    for (const url of new Set([...tasks, ...boards, ...home])) assert.is((await h.request(url)).status, 200, url);
  }));

t("a page's module is one module: its relative imports inlined, its bare ones left to the import map; its per-file URLs still answer", () =>
  withTestHost(async (h) => {
    const res = await h.request("/dashboard/plugins/work/tasks-page.ts");
    assert.is(res.status, 200);
    assert.is(res.headers.get("content-type"), JS);
    const code = await res.text();
    const imports = staticImports(code);
    assert.ok(imports.includes("@muster/console"), "the kit stays an import: one shared instance");
    // Relative imports are inlined; what the plugin's pages share is one chunk (one instance).
    const relative = imports.filter((specifier) => specifier.startsWith("."));
    assert.ok(relative.every((specifier) => /^\.\/shared-[a-z0-9]+\.ts$/.test(specifier)), `only the plugin's shared chunk stays relative: ${relative.join(" ")}`);
    const chunks = await Promise.all(relative.map(async (specifier) => (await h.request(`/dashboard/plugins/work/${specifier.slice(2)}`)).text()));
    assert.match([code, ...chunks].join("\n"), /function TaskList\b/, "task-list.ts is inside");
    assert.not.match([code, ...chunks].join("\n"), /from "\/dashboard\/|function createElement\(/, "preact is not copied in");
    // The shell and the kit: each one module; what both use is one shared chunk, not two copies.
    const main = await (await h.request("/dashboard/main.ts")).text();
    const kit = await (await h.request("/dashboard/kit.ts")).text();
    const chunk = staticImports(main).find((specifier) => specifier.startsWith("./shared-"));
    assert.ok(chunk, "the shell imports the shared chunk");
    assert.ok(staticImports(kit).includes(chunk!), "the kit imports the same chunk");
    assert.is((await h.request(`/dashboard/${chunk!.slice(2)}`)).status, 200);
    for (const specifier of [...staticImports(main), ...staticImports(kit)]) assert.ok(!specifier.startsWith(".") || specifier === chunk, `${specifier}: only the chunk is relative`);
    // Per-file URLs keep working for anything that names them.
    for (const path of ["/dashboard/router.ts", "/dashboard/ui/basics.ts", "/dashboard/plugins/work/task-list.ts"]) {
      const file = await h.request(path);
      assert.is(file.status, 200, path);
      assert.is(file.headers.get("content-type"), JS, path);
    }
  }));

t("console files carry an ETag and Cache-Control: no-cache and answer If-None-Match with 304; the page and the API stay no-store", () =>
  withTestHost(async (h) => {
    for (const path of ["/dashboard/kit.ts", "/dashboard/plugins/work/tasks-page.ts", "/dashboard/style.css", "/dashboard/vendor/preact.js"]) {
      const first = await h.request(path);
      assert.is(first.status, 200, path);
      const body = Buffer.from(await first.arrayBuffer());
      const etag = first.headers.get("etag");
      assert.is(etag, `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`, `${path}: the hash of the bytes`);
      assert.is(first.headers.get("cache-control"), "no-cache", path);
      const again = await h.request(path, { headers: { "if-none-match": etag! } });
      assert.is(again.status, 304, path);
      assert.is(await again.text(), "", path);
      assert.is(again.headers.get("etag"), etag, path);
      assert.is((await h.request(path, { headers: { "if-none-match": `"other", W/${etag}` } })).status, 304, `${path}: a weak match in a list`);
      const changed = await h.request(path, { headers: { "if-none-match": '"other"' } });
      assert.is(changed.status, 200, `${path}: another tag gets the file`);
      assert.is(Buffer.from(await changed.arrayBuffer()).equals(body), true);
    }
    for (const path of ["/", "/console/tasks", "/api/health", "/dashboard/pages"]) assert.is((await h.request(path)).headers.get("cache-control"), "no-store", path);
  }));

t("moving between two pages loads the kit once, as one module: the pages share its instance", async () => {
  if (chromiumMissing()) return;
  await withTestHost(async (h) =>
    withBrowser(async (browser) => {
      const tab = await openConsole(browser, h, "/console/approvals");
      const requested: string[] = [];
      tab.on("request", (request) => requested.push(new URL(request.url()).pathname));
      // A second visit in this tab, then a move inside it through the kit's router (no reload).
      await tab.goto(new URL("/console/approvals", h.url).href);
      await waitForConsole(tab);
      await tab.getByRole("link", { name: "Tasks", exact: true }).first().click();
      await tab.getByRole("heading", { level: 1, name: "Tasks" }).waitFor();
      assert.is(new URL(tab.url()).pathname, "/console/tasks");
      const scripts = requested.filter((path) => path.startsWith("/dashboard/") && /\.(ts|js)$/.test(path));
      assert.is(scripts.filter((path) => path === "/dashboard/kit.ts").length, 1, `the kit once: ${scripts.join(" ")}`);
      const consoleOwn = scripts.filter((path) => !path.startsWith("/dashboard/plugins/") && !path.startsWith("/dashboard/vendor/") && !path.startsWith("/dashboard/sdk/"));
      assert.equal(consoleOwn.filter((path) => !/^\/dashboard\/shared-/.test(path)).sort(), ["/dashboard/kit.ts", "/dashboard/main.ts"], `the console's own modules: ${consoleOwn.join(" ")}`);
      assert.equal(scripts.filter((path) => path.startsWith("/dashboard/plugins/") && !path.includes("/shared-")).sort(), ["/dashboard/plugins/approvals/approvals-page.ts", "/dashboard/plugins/work/tasks-page.ts"], "each page one module");
      await tab.close();
    }),
  );
});

t("unknown files are 404 with a code; anything that is not a plain file name is refused", () =>
  withTestHost(async (h) => {
    const unknown = await h.json("/dashboard/nope.js");
    assert.is(unknown.status, 404);
    assert.is(unknown.body.error!.code, "DASHBOARD_ASSET_NOT_FOUND");
    for (const path of ["/dashboard/..%2Fpackage.json", "/dashboard/app.js", "/dashboard/main.js", "/dashboard/%2e%2e%2fmain.ts", "/dashboard/Main.ts", "/dashboard/vendor/react.js"]) {
      const res = await h.json(path);
      assert.ok(res.status === 400 || res.status === 404, `${path}: ${res.status}`);
      assert.ok(["VALIDATION_FAILED", "DASHBOARD_ASSET_NOT_FOUND", "NOT_FOUND"].includes(res.body.error!.code), `${path}: ${res.body.error!.code}`);
    }
    const traversal = await h.request("/dashboard/../package.json");
    assert.ok(traversal.status >= 400, "no file outside the console");
    assert.not.match(await traversal.text(), "\"devDependencies\"");
    const post = await h.json("/", { method: "POST", body: {} });
    assert.is(post.status, 405);
    const noPage = await h.json("/console/no-such-page");
    assert.is(noPage.status, 404);
    assert.is(noPage.body.error!.code, "DASHBOARD_PAGE_NOT_FOUND");
  }));

t("a foreign Origin is refused on the page like on the API", () =>
  withTestHost(async (h) => {
    for (const path of ["/", "/console/approvals"]) {
      const res = await h.json(path, { headers: { origin: "http://evil.example" } });
      assert.is(res.status, 403, path);
      assert.is(res.body.error!.code, "ORIGIN_NOT_ALLOWED");
    }
  }));

t("GET /dashboard/panels and /dashboard/pages list the contributions; each module is served from its plugin's console directory only", () =>
  withTestHost({ extraPlugins: [notesPanelPlugin] }, async (h) => {
    const listed = await h.json("/dashboard/panels");
    assert.is(listed.status, 200);
    const byKey = new Map((listed.body.panels as { plugin: string; id: string; events: string[] }[]).map((p) => [`${p.plugin}/${p.id}`, p]));
    assert.equal(byKey.get("notes-panel/drawn"), { plugin: "notes-panel", id: "drawn", title: "Notes <b>panel</b>", module: "/dashboard/plugins/notes-panel/notes-panel.js", events: ["work.task.*"] });
    assert.equal(byKey.get("agents/health"), { plugin: "agents", id: "health", title: "Agent health", module: "/dashboard/plugins/agents/health-panel.js", events: [] });
    assert.equal(byKey.get("approvals/pending"), { plugin: "approvals", id: "pending", title: "Pending approvals", module: "/dashboard/plugins/approvals/pending-panel.ts", events: ["approvals.*"] });
    assert.equal(byKey.get("publishing/failed-sends")?.events, ["publishing.outbox.*"]);
    assert.equal(byKey.get("crons/failed-runs")?.events, ["crons.run.*"]);
    assert.equal(byKey.get("vault/names")?.events, ["vault.secret.*"]);
    assert.ok(byKey.has("usage/usage"));
    const pages = (await h.json("/dashboard/pages")).body.pages as { id: string; group: string; order: number; path: string }[];
    assert.equal(pages.find((p) => p.id === "approvals"), { plugin: "approvals", id: "approvals", title: "Approvals", module: "/dashboard/plugins/approvals/approvals-page.ts", events: ["approvals.*"], path: "/console/approvals", group: "crew", order: 0 });
    assert.is(pages[0]!.id, "approvals", "first in the navigation");

    const module = await h.request("/dashboard/plugins/notes-panel/notes-panel.js");
    assert.is(module.status, 200);
    assert.is(module.headers.get("content-type"), JS);
    assert.match(module.headers.get("content-security-policy")!, "script-src 'self'");
    assert.is(module.headers.get("x-content-type-options"), "nosniff");
    assert.is(await module.text(), readFileSync(fileURLToPath(new URL("./fixtures/notes-panel.js", import.meta.url)), "utf8"));

    for (const path of ["/dashboard/plugins/notes-panel/other.js", "/dashboard/plugins/nobody/notes-panel.js", "/dashboard/plugins/agents/notes-panel.js", "/dashboard/plugins/approvals/index.ts"]) {
      const res = await h.json(path);
      assert.is(res.status, 404, path);
      assert.is(res.body.error!.code, "DASHBOARD_ASSET_NOT_FOUND");
    }
    for (const path of ["/dashboard/plugins/notes-panel/..%2F..%2Fpackage.json", "/dashboard/plugins/..%2Fagents/health-panel.js", "/dashboard/plugins/notes-panel/notes-panel.ts", "/dashboard/plugins/Notes/notes-panel.js"]) {
      const res = await h.json(path);
      assert.ok(res.status === 400 || res.status === 404, `${path}: ${res.status}`);
      assert.ok(["VALIDATION_FAILED", "DASHBOARD_ASSET_NOT_FOUND", "NOT_FOUND"].includes(res.body.error!.code), `${path}: ${res.body.error!.code}`);
    }
  }));

t("a panel whose module cannot be read, or with a bad id, stops the start with DASHBOARD_PANEL_INVALID", async () => {
  const withPanel = (panel: { id: string; module: string }) =>
    definePlugin({ id: "bad-panel", version: "1.0.0", host: "^1.0.0", dependsOn: ["dashboard"], contributions: [contribute(CONSOLE_PANELS, { title: "Bad", ...panel })] });
  const dashboard = builtInPlugins.filter((p) => p.id === "dashboard");
  const fixture = fileURLToPath(new URL("./fixtures/notes-panel.js", import.meta.url));
  for (const panel of [{ id: "gone", module: "/nonexistent/panel.js" }, { id: "../up", module: fixture }, { id: "css", module: fileURLToPath(new URL("../../plugins/dashboard/console/style.css", import.meta.url)) }]) {
    assert.is(await startErrorCode({ plugins: [...dashboard, withPanel(panel)] }), "DASHBOARD_PANEL_INVALID", panel.id);
  }
});

t.run();
