import { fileURLToPath } from "node:url";
import { defineRoutes, z, type PluginRouter, type RouteInput } from "@muster/plugin";
import { dashboardErrors } from "../errors.ts";
import { loadConsolePanels, type ConsolePanels } from "../services/console-panels.ts";
import { loadStaticAssets, type StaticAsset } from "../services/static-assets.ts";
import { CONSOLE_PANELS } from "../tokens.ts";

const STATIC_DIR = fileURLToPath(new URL("../static/", import.meta.url));
const assetParams = z.strictObject({ file: z.string().regex(/^[a-z0-9-]+\.(?:js|css|svg)$/, "a dashboard file name") });
const panelParams = z.strictObject({
  plugin: z.string().regex(/^[a-z][a-z0-9-]*$/, "a plugin id"),
  file: z.string().regex(/^[a-z][a-z0-9-]*\.js$/, "a panel module name"),
});
const panelsResponse = z.object({
  panels: z.array(
    z.object({
      plugin: z.string(),
      id: z.string(),
      title: z.string(),
      module: z.string().describe("`/dashboard/plugins/<plugin>/<id>.js`"),
      events: z.array(z.string()).describe("Live-stream event names or prefixes (`vault.secret.*`) the panel refreshes on"),
    }),
  ),
});

function send(input: RouteInput<unknown, unknown, unknown>, asset: StaticAsset): void {
  input.koa.status = 200;
  input.koa.type = asset.type;
  input.koa.body = asset.body;
}

/** `GET /` (the page), `GET /dashboard/{file}` (its modules and styles), and the panels other plugins contribute. */
export const dashboardRoutes = defineRoutes({
  deps: { contributed: CONSOLE_PANELS.contributions },
  mount: (router, { contributed }) => mountDashboardRoutes(router, loadConsolePanels(contributed)),
});

function mountDashboardRoutes(router: PluginRouter, panels: ConsolePanels): void {
  const assets = loadStaticAssets(STATIC_DIR);
  const page = assets.get("index.html")!;

  // Any query is ignored rather than refused: a link with tracking parameters still opens the page.
  router.get("/", { summary: "The dashboard page (HTML)", query: z.object({}), raw: true, tags: ["page"] }, (input) => send(input, page));

  // Before /dashboard/:file, which would otherwise take "panels" for a file name.
  router.get(
    "/dashboard/panels",
    { summary: "The console panels plugins contribute: title, module to import, events to refresh on", query: z.strictObject({}), response: panelsResponse, tags: ["page"] },
    () => ({ panels: panels.listed }),
  );

  router.get(
    "/dashboard/:file",
    { summary: "A file of the dashboard (ES module, stylesheet or icon)", params: assetParams, raw: true, tags: ["page"] },
    (input) => {
      const asset = assets.get(input.params.file);
      if (!asset) throw dashboardErrors.DASHBOARD_ASSET_NOT_FOUND({ file: input.params.file });
      send(input, asset);
    },
  );

  router.get(
    "/dashboard/plugins/:plugin/:file",
    { summary: "The ES module of a console panel a plugin contributes", params: panelParams, raw: true, tags: ["page"] },
    (input) => {
      const file = `${input.params.plugin}/${input.params.file}`;
      const module = panels.modules.get(file);
      if (!module) throw dashboardErrors.DASHBOARD_ASSET_NOT_FOUND({ file: `plugins/${file}` });
      send(input, module);
    },
  );
}
