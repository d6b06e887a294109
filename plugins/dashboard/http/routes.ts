import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { defineRoutes, z, type PluginRouter, type RouteInput } from "@muster/plugin";
import { dashboardErrors } from "../errors.ts";
import { consoleFiles, type ServedFile } from "../services/console-files.ts";
import { loadConsoleContributions, type ConsoleContributions } from "../services/console-contributions.ts";
import { IMPORT_MAP, loadConsolePage, withScriptHash, type ConsolePage } from "../services/console-page.ts";
import { ModulePreloads } from "../services/module-preloads.ts";
import { CONSOLE_PAGES, CONSOLE_PANELS } from "../tokens.ts";

const CONSOLE_DIR = fileURLToPath(new URL("../console/", import.meta.url));
/** The console's entry module, as index.html loads it. */
const MAIN_MODULE = "/dashboard/main.ts";
const segment = (what: string) => z.string().regex(/^[a-z0-9][a-z0-9.-]*$/, what);
const pageParams = z.object({ page: z.string().regex(/^[a-z][a-z0-9-]*$/, "a page id") }).passthrough();
const listedFields = {
  plugin: z.string(),
  id: z.string(),
  title: z.string(),
  module: z.string().describe("The ES module to import: `/dashboard/plugins/<plugin>/<file>`"),
  events: z.array(z.string()).describe("Live-stream event names or prefixes (`vault.secret.*`) it refreshes on"),
};
const panelsResponse = z.object({ panels: z.array(z.object(listedFields)) });
const pagesResponse = z.object({
  pages: z.array(z.object({ ...listedFields, path: z.string().describe("`/console/<id>`"), group: z.string(), order: z.number() })),
});

const etags = new WeakMap<Buffer, string>();
/** A strong validator: the hash of the bytes served, computed once per body (bodies are kept). */
function etagOf(body: Buffer): string {
  let etag = etags.get(body);
  if (!etag) {
    etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    etags.set(body, etag);
  }
  return etag;
}
/** `If-None-Match: "a", W/"b"` or `*` names `etag` (weak comparison, as RFC 9110 asks for GET). */
function matchesEtag(header: string, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag.replace(/^W\//, "") === etag;
  });
}

/** The console page, its files, and the panels and pages other plugins contribute. */
export const dashboardRoutes = defineRoutes({
  deps: { panels: CONSOLE_PANELS.contributions, pages: CONSOLE_PAGES.contributions },
  mount: (router, { panels, pages }) => {
    const files = consoleFiles(CONSOLE_DIR);
    const contributions = loadConsoleContributions(panels, pages, files);
    mountConsoleRoutes(router, files, contributions, loadConsolePage(`${CONSOLE_DIR}index.html`));
  },
});

function mountConsoleRoutes(router: PluginRouter, files: Map<string, ServedFile>, contributions: ConsoleContributions, page: ConsolePage): void {
  // Each address lists the modules it will import, so the browser fetches them at once
  // (module-preloads.ts): the console's own, plus the page's, or on the home page the panels'.
  const preloads = new ModulePreloads(files, IMPORT_MAP.imports);
  const bodies = new Map<string, Promise<Buffer>>();
  const bodyFor = (pageId: string) => {
    let body = bodies.get(pageId);
    if (!body) {
      const modules = pageId ? contributions.pages.filter((listed) => listed.id === pageId) : contributions.panels;
      body = preloads.forEntries([MAIN_MODULE, ...modules.map((listed) => listed.module)]).then((urls) => page.withPreloads(urls));
      bodies.set(pageId, body);
    }
    return body;
  };
  const sendPage = async ({ koa }: RouteInput<unknown, unknown, unknown>, pageId: string) => {
    const body = await bodyFor(pageId);
    koa.set("Content-Security-Policy", withScriptHash(koa.response.get("Content-Security-Policy"), page.scriptHash));
    koa.status = 200;
    koa.type = "text/html; charset=utf-8";
    koa.body = body;
  };
  const sendFile = async ({ koa }: RouteInput<unknown, unknown, unknown>, key: string) => {
    const file = files.get(key);
    if (!file) throw dashboardErrors.DASHBOARD_ASSET_NOT_FOUND({ file: key });
    const body = await file.body();
    // The browser may keep a file but asks each time (no-cache) whether it is still current:
    // a visit after the first downloads only what changed (a restart with other sources).
    const etag = etagOf(body);
    koa.set("Cache-Control", "no-cache");
    koa.set("ETag", etag);
    koa.type = file.type;
    if (matchesEtag(koa.get("If-None-Match"), etag)) {
      koa.status = 304;
      return;
    }
    koa.status = 200;
    koa.body = body;
  };
  const knownPage = (id: string) => {
    if (!contributions.pages.some((listed) => listed.id === id)) throw dashboardErrors.DASHBOARD_PAGE_NOT_FOUND({ page: id });
  };

  // Any query is ignored rather than refused: a link with tracking parameters still opens the page.
  router.get("/", { summary: "The console's home page (HTML)", query: z.object({}), raw: true, tags: ["page"] }, (input) => sendPage(input, ""));
  for (const path of ["/console/:page", "/console/:page/:a", "/console/:page/:a/:b"]) {
    router.get(path, { summary: "A page of the console (HTML): the page a plugin contributes, at a place inside it", params: pageParams, query: z.object({}), raw: true, tags: ["page"] }, (input) => {
      knownPage(input.params.page);
      return sendPage(input, input.params.page);
    });
  }

  // Before /dashboard/:file, which would otherwise take "panels" and "pages" for file names.
  router.get(
    "/dashboard/panels",
    { summary: "The home-page panels plugins contribute: title, module to import, events to refresh on", query: z.strictObject({}), response: panelsResponse, tags: ["page"] },
    () => ({ panels: contributions.panels }),
  );
  router.get(
    "/dashboard/pages",
    { summary: "The console pages plugins contribute, in navigation order: title, address, group, module, events", query: z.strictObject({}), response: pagesResponse, tags: ["page"] },
    () => ({ pages: contributions.pages }),
  );

  const fileSummary = "A file of the console (ES module, stylesheet or icon; TypeScript is served as JavaScript)";
  router.get("/dashboard/:file", { summary: fileSummary, params: z.strictObject({ file: segment("a file name") }), raw: true, tags: ["page"] }, (input) => sendFile(input, input.params.file));
  router.get("/dashboard/:dir/:file", { summary: fileSummary, params: z.strictObject({ dir: segment("a directory"), file: segment("a file name") }), raw: true, tags: ["page"] }, (input) =>
    sendFile(input, `${input.params.dir}/${input.params.file}`),
  );
  router.get(
    "/dashboard/:dir/:sub/:file",
    { summary: `${fileSummary}; also the modules plugins contribute, at /dashboard/plugins/<plugin>/<file>`, params: z.strictObject({ dir: segment("a directory"), sub: segment("a directory"), file: segment("a file name") }), raw: true, tags: ["page"] },
    (input) => sendFile(input, `${input.params.dir}/${input.params.sub}/${input.params.file}`),
  );
}
