import { fileURLToPath } from "node:url";
import { z, type PluginRouter, type RouteInput } from "@muster/plugin";
import { dashboardErrors } from "../errors.ts";
import { loadStaticAssets, type StaticAsset } from "../services/static-assets.ts";

const STATIC_DIR = fileURLToPath(new URL("../static/", import.meta.url));
const assetParams = z.strictObject({ file: z.string().regex(/^[a-z0-9-]+\.(?:js|css|svg)$/, "a dashboard file name") });

function send(input: RouteInput<unknown, unknown, unknown>, asset: StaticAsset): void {
  input.koa.status = 200;
  input.koa.type = asset.type;
  input.koa.body = asset.body;
}

/** `GET /` (the page) and `GET /dashboard/{file}` (its modules and styles). */
export function mountDashboardRoutes(router: PluginRouter): void {
  const assets = loadStaticAssets(STATIC_DIR);
  const page = assets.get("index.html")!;

  // Any query is ignored rather than refused: a link with tracking parameters still opens the page.
  router.get("/", { summary: "The dashboard page (HTML)", query: z.object({}), raw: true, tags: ["page"] }, (input) => send(input, page));

  router.get(
    "/dashboard/:file",
    { summary: "A file of the dashboard (ES module, stylesheet or icon)", params: assetParams, raw: true, tags: ["page"] },
    (input) => {
      const asset = assets.get(input.params.file);
      if (!asset) throw dashboardErrors.DASHBOARD_ASSET_NOT_FOUND({ file: input.params.file });
      send(input, asset);
    },
  );
}
