// The OpenAPI 3.1 document a host serves at /api/openapi.json (core/internal/http/openapi.ts
// builds it from the routes' zod schemas), for tests that assert what it lists. The route is
// the host's own and not listed in the document, so `h.json` types it from here.

/** A JSON Schema as zod emits it: the keywords tests read, any other kept as unknown. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  description?: string;
  [keyword: string]: unknown;
}

export interface OpenApiParameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

type JsonContent = { "application/json": { schema: JsonSchema } };

export interface OpenApiOperation {
  operationId: string;
  summary?: string;
  description?: string;
  tags: string[];
  deprecated?: boolean;
  "x-legacy"?: boolean;
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: JsonContent };
  responses: Record<string, { description: string; content?: JsonContent }>;
  /** Present when the route needs the session (every DELETE, and routes declared `auth: "session"`). */
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  components: { securitySchemes: Record<string, Record<string, string>> };
  paths: Record<string, Partial<Record<"get" | "post" | "put" | "patch" | "delete", OpenApiOperation>>>;
}
