// OpenAPI 3.1 generated from the same zod schemas the routes validate with.
import { z } from "zod";
import type { RouteRecord } from "./plugin-router.ts";

const toJson = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;

const errorEnvelope = {
  type: "object",
  required: ["ok", "error"],
  properties: {
    ok: { const: false },
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string" }, message: { type: "string" }, details: {} },
    },
  },
};

function parametersFrom(schema: z.ZodType | undefined, location: "query" | "path") {
  if (!schema) return [];
  const json = toJson(schema, "input");
  const properties = (json.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === "path" || required.has(name),
    schema: property,
    ...(typeof property.description === "string" ? { description: property.description } : {}),
  }));
}

export function buildOpenApi(routes: RouteRecord[], info: { version: string; url: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { pluginId, method, path, spec } of routes) {
    const openPath = path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    const status = String(spec.status ?? 200);
    const operation: Record<string, unknown> = {
      operationId: `${pluginId}.${method.toLowerCase()}${openPath.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      tags: [pluginId, ...(spec.tags ?? []), ...(spec.legacy ? ["legacy"] : [])],
      ...(spec.legacy ? { deprecated: true, "x-legacy": true } : {}),
      parameters: [...parametersFrom(spec.params, "path"), ...parametersFrom(spec.query, "query")],
      responses: {
        [status]: {
          description: spec.raw ? "Streamed response" : "Success",
          ...(spec.response ? { content: { "application/json": { schema: toJson(spec.response, "output") } } } : {}),
        },
        default: { description: "Error", content: { "application/json": { schema: errorEnvelope } } },
      },
    };
    if (spec.body) {
      operation.requestBody = { required: true, content: { "application/json": { schema: toJson(spec.body, "input") } } };
    }
    if (method === "DELETE" || spec.auth === "session") operation.security = [{ sessionToken: [] }, { browserSession: [] }];
    paths[openPath] ??= {};
    paths[openPath][method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: { title: "Muster", version: info.version, description: "Local workspace server for crews of AI agents" },
    servers: [{ url: info.url }],
    components: {
      securitySchemes: {
        sessionToken: {
          type: "apiKey",
          in: "header",
          name: "X-Session-Token",
          description:
            "The per-process session token from $MUSTER_HOME/session-token (mode 0600, new at every start); no endpoint returns it. A browser uses the muster_session cookie instead (login link printed at start or by `muster login`), accepted on same-origin requests only",
        },
        browserSession: { type: "apiKey", in: "cookie", name: "muster_session", description: "Set by GET /login?code=…; same-origin requests only (allowed Origin or Sec-Fetch-Site: same-origin)" },
        bearer: { type: "http", scheme: "bearer", description: "MUSTER_API_TOKEN, required when bound to a non-loopback address" },
      },
    },
    paths,
  };
}
