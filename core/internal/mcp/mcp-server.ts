// Builds the MCP server both transports serve (stdio: `muster mcp`; Streamable HTTP: /mcp).
// Each tool (contributed by a plugin, tools.ts) is one API operation: its input schema is that operation's schema
// from the server's OpenAPI document (generated from the zod schemas the route validates
// with), and calling it makes the HTTP call. Validation therefore happens once, in the
// route: a bad input gets the route's VALIDATION_FAILED with the route's message.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { validationFailed } from "../../plugin-api/zod-issues.ts";
import type { MusterError } from "../../plugin-api/errors.ts";
import type { ApiCall } from "./http-api.ts";
import { mcpErrors } from "./mcp-errors.ts";
import { toolNames, type McpTool } from "./tools.ts";

type Json = Record<string, unknown>;

interface OpenApiOperation {
  summary?: string;
  description?: string;
  parameters?: { name: string; in: "path" | "query"; required?: boolean; schema?: Json; description?: string }[];
  requestBody?: { content?: { "application/json"?: { schema?: Json } } };
  security?: unknown[];
}

/** The part of /api/openapi.json the tools are built from (core/internal/http/openapi.ts writes it). */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown> | undefined>;
}

export interface MusterMcpOptions {
  /** The plugins' tools ({@link mcpTools}); one whose operation the server does not serve is left out. */
  tools: readonly McpTool[];
  /** The running server's /api/openapi.json. */
  openapi: OpenApiDocument;
  api: ApiCall;
  /** Whether write tools run; without the scope they answer MCP_WRITE_SCOPE_REQUIRED. */
  write: boolean;
  /** How a client of this transport gets the write scope (said in the refusal). */
  writeScopeHint: string;
  version: string;
}

/** Throws MCP_TOOL_NEEDS_SESSION when a tool maps to an operation that needs the human's session token. */
export function createMusterMcpServer({ tools, openapi, api, write, writeScopeHint, version }: MusterMcpOptions): McpServer {
  const server = new McpServer(
    { name: "muster", title: "Muster", version },
    {
      instructions:
        "Muster is the crew's workspace. Read tools are always available; " +
        `write tools (${toolNames(tools, "write")}) need the write scope${write ? " (granted)" : " (not granted)"}. ` +
        "Approvals are decided by humans only: no tool decides one.",
    },
  );
  for (const tool of tools) {
    const operation = openapi.paths?.[tool.path]?.[tool.method.toLowerCase()] as OpenApiOperation | undefined;
    if (!operation) continue; // the server does not serve it (its plugin is not loaded there)
    // No tool may reach an operation that needs the human's credential: the whole server is refused (fail closed).
    if (operation.security?.length) throw mcpErrors.MCP_TOOL_NEEDS_SESSION({ tool: tool.name, plugin: tool.plugin, method: tool.method, path: tool.path });
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: [operation.summary, operation.description, tool.scope === "write" ? "Needs the write scope." : ""].filter(Boolean).join(" "),
        inputSchema: advertised(toolInputSchema(tool, operation)),
        annotations: { readOnlyHint: tool.scope === "read", destructiveHint: false, idempotentHint: tool.scope === "read", openWorldHint: false },
      },
      async (args) => {
        if (tool.scope === "write" && !write) return refusal(mcpErrors.MCP_WRITE_SCOPE_REQUIRED({ tool: tool.name, how: writeScopeHint }));
        return callTool(tool, args, api);
      },
    );
  }
  return server;
}

/**
 * One JSON Schema for the tool's arguments: the operation's path and query parameters and
 * its JSON body's properties, side by side (no tool has a name in two of them).
 */
export function toolInputSchema(tool: McpTool, operation: OpenApiOperation): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const parameter of operation.parameters ?? []) {
    properties[parameter.name] = { ...parameter.schema, ...(parameter.description ? { description: parameter.description } : {}) };
    if (parameter.required) required.push(parameter.name);
  }
  const body = operation.requestBody?.content?.["application/json"]?.schema;
  if (body && tool.method !== "GET") {
    Object.assign(properties, body.properties as Json | undefined);
    required.push(...((body.required as string[] | undefined) ?? []));
  }
  return { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false, ...(body?.$defs ? { $defs: body.$defs } : {}) };
}

/**
 * The SDK wants a zod schema and validates with it before the tool runs. This one accepts
 * any object and carries the route's JSON Schema as its metadata, which is what
 * `tools/list` shows: clients see the exact schema, and the route alone decides.
 */
function advertised(jsonSchema: Json) {
  return z.looseObject({}).meta(jsonSchema);
}

async function callTool(tool: McpTool, args: Json, api: ApiCall): Promise<CallToolResult> {
  const rest: Json = { ...args };
  const invalid: string[] = [];
  const path = tool.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
    const value = rest[name];
    delete rest[name];
    // "." and ".." survive encoding and URL resolution would make them another path (/api/tasks/.. is /api/).
    if (typeof value !== "string" || value === "" || value === "." || value === "..") invalid.push(name);
    return encodeURIComponent(typeof value === "string" ? value : "");
  });
  if (invalid.length) return refusal(validationFailed("tool arguments", invalid.map((name) => ({ path: name, reason: "must be an id (a non-empty string other than . and ..)", in: "params" as const }))));
  const request =
    tool.method === "GET"
      ? { method: tool.method, path, query: Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])) }
      : { method: tool.method, path, body: rest };
  let answer;
  try {
    answer = await api(request);
  } catch (error) {
    return refusal(mcpErrors.MCP_SERVER_UNREACHABLE({ method: tool.method, path, reason: (error as Error).message }, { cause: error }));
  }
  const body = answer.body as { ok?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  if (answer.status >= 400) {
    const code = typeof body?.error?.code === "string" ? body.error.code : `HTTP_${answer.status}`;
    const message = typeof body?.error?.message === "string" ? body.error.message : "the server refused the call";
    return { isError: true, content: [{ type: "text", text: `${code}: ${message}\n${JSON.stringify(body, null, 2)}` }], structuredContent: isObject(body) ? body : { ok: false, error: { code, message } } };
  }
  return { content: [{ type: "text", text: JSON.stringify(answer.body, null, 2) }], ...(isObject(answer.body) ? { structuredContent: answer.body } : {}) };
}

/** A refusal of the MCP layer itself, in the API's envelope. */
function refusal(error: MusterError): CallToolResult {
  const envelope = { ok: false, error: { code: error.code, message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) } };
  return { isError: true, content: [{ type: "text", text: `${error.code}: ${error.message}\n${JSON.stringify(envelope, null, 2)}` }], structuredContent: envelope };
}

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
