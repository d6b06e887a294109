// The host's own endpoints: health, the session token, the OpenAPI document, the plugin list.
import { z } from "zod";
import type { PluginRouter } from "../plugin-api/http.ts";
import { buildOpenApi } from "./http/openapi.ts";
import type { RouteRecord } from "./http/plugin-router.ts";

export const HOST_PATHS = ["/api/health", "/api/auth", "/api/openapi.json", "/api/plugins"];

export interface PluginSummary {
  id: string;
  version: string;
  source: string;
  paths: string[];
  dependsOn: string[];
  state: "started" | "stopped";
}

export interface HostRouteDeps {
  version: string;
  startedAt: number;
  url: () => string;
  databaseState: () => "ok" | "error";
  sessionToken: string;
  routes: () => RouteRecord[];
  plugins: () => PluginSummary[];
}

const healthResponse = z.object({
  status: z.enum(["ok", "degraded"]),
  timestamp: z.string(),
  version: z.string(),
  uptimeMs: z.number().int(),
  database: z.enum(["ok", "error"]),
});

export function mountHostRoutes(router: PluginRouter, deps: HostRouteDeps): void {
  let openApiCache: unknown;
  router.get("/api/health", { summary: "Service health", query: z.strictObject({}), response: healthResponse, tags: ["host"] }, ({ koa }) => {
    const database = deps.databaseState();
    if (database !== "ok") koa.status = 503;
    return {
      status: database === "ok" ? "ok" : "degraded",
      timestamp: new Date().toISOString(),
      version: deps.version,
      uptimeMs: Date.now() - deps.startedAt,
      database,
    };
  });

  router.get(
    "/api/auth/session",
    {
      summary: "The per-process session token for destructive operations (send it as X-Session-Token)",
      query: z.strictObject({}),
      response: z.object({ ok: z.literal(true), token: z.string() }),
      tags: ["host"],
    },
    () => ({ ok: true, token: deps.sessionToken }),
  );

  router.get("/api/openapi.json", { summary: "This API as an OpenAPI 3.1 document", query: z.strictObject({}), tags: ["host"] }, () => {
    openApiCache ??= buildOpenApi(deps.routes(), { version: deps.version, url: deps.url() });
    return openApiCache;
  });

  router.get(
    "/api/plugins",
    {
      summary: "Loaded plugins",
      query: z.strictObject({}),
      tags: ["host"],
      response: z.object({
        ok: z.literal(true),
        plugins: z.array(z.object({ id: z.string(), version: z.string(), source: z.string(), paths: z.array(z.string()), dependsOn: z.array(z.string()), state: z.string() })),
      }),
    },
    () => ({ ok: true, plugins: deps.plugins() }),
  );
}
