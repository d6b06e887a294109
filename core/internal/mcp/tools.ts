// The MCP tools Muster offers come from the plugins: each contributes its own to
// `hostPoints.mcpTools`, and the host holds none (it knows no feature). Each tool is exactly
// one HTTP API operation, named by method and path. The host's rules hold whatever a plugin
// contributes: a read tool only reads (GET), names are unique, and no tool may reach an
// operation that needs the human's session token (deciding approvals, deleting): building
// the server refuses one (mcp-server.ts), so no MCP client can decide an approval.
import type { Contributed } from "../../plugin-api/extension-points.ts";
import type { McpScope, McpToolSpec } from "../../plugin-api/host-points.ts";
import { mcpErrors } from "./mcp-errors.ts";

/** A tool as served: its spec and the plugin that contributed it. */
export interface McpTool extends McpToolSpec {
  plugin: string;
}

const NAME = /^[a-z][a-z0-9_]{0,63}$/;
const METHODS = new Set(["GET", "POST", "PATCH"]);

/**
 * The tools both transports serve, in a stable order: read tools, then write tools, each in
 * plugin start order and then the order the plugin lists them. Throws MCP_TOOL_INVALID for
 * a contribution that breaks a rule (a third-party plugin's values are not type-checked).
 */
export function mcpTools(contributed: readonly Contributed<McpToolSpec>[]): McpTool[] {
  const names = new Map<string, string>();
  const tools = contributed.map(({ plugin, value }) => {
    const tool = { ...value, plugin };
    const invalid = (reason: string) => mcpErrors.MCP_TOOL_INVALID({ plugin, tool: String(tool?.name), reason });
    if (typeof tool.name !== "string" || !NAME.test(tool.name)) throw invalid("its name must be snake_case (a-z, 0-9, _), at most 64 characters");
    if (names.has(tool.name)) throw invalid(`plugin "${names.get(tool.name)}" contributes a tool of this name already`);
    names.set(tool.name, plugin);
    if (typeof tool.title !== "string" || !tool.title) throw invalid("it needs a title");
    if (!METHODS.has(tool.method)) throw invalid("its method must be GET, POST or PATCH");
    if (typeof tool.path !== "string" || !tool.path.startsWith("/")) throw invalid("its path must be an API path (/api/...)");
    // A call that changes something needs the write scope, so a read tool can only be a GET.
    if (tool.scope === "read" ? tool.method !== "GET" : tool.scope !== "write") throw invalid('its scope must be "read" (GET only) or "write"');
    return tool;
  });
  return [...tools.filter((t) => t.scope === "read"), ...tools.filter((t) => t.scope === "write")];
}

/** The names of the tools of one scope, comma-separated (for help texts). */
export const toolNames = (tools: readonly McpTool[], scope: McpScope) =>
  tools
    .filter((t) => t.scope === scope)
    .map((t) => t.name)
    .join(", ") || "none";

/** A mounted route as the boot check needs it (core/internal/http/plugin-router.ts RouteRecord). */
interface ServedRoute {
  method: string;
  path: string;
  spec: { auth?: string };
}

/**
 * The start-up check of the contributed tools against the mounted routes: the rules of
 * {@link mcpTools}, and no tool on an operation that needs the session token (a DELETE or a
 * session route, what OpenAPI marks with `security`). A bad tool stops the start, naming it,
 * rather than leaving /mcp answering 500 until someone calls it.
 */
export function checkServedTools(contributed: readonly Contributed<McpToolSpec>[], routes: readonly ServedRoute[]): void {
  const sessionOnly = new Set(routes.filter((r) => r.method === "DELETE" || r.spec.auth === "session").map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`));
  for (const tool of mcpTools(contributed)) {
    if (sessionOnly.has(`${tool.method} ${tool.path}`)) throw mcpErrors.MCP_TOOL_NEEDS_SESSION({ tool: tool.name, plugin: tool.plugin, method: tool.method, path: tool.path });
  }
}
