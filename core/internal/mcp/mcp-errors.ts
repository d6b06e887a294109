// Refusals of the MCP server itself; everything else an MCP tool answers with is the HTTP
// API's own error (same code, same message), since every tool is an API call.
import { defineErrors } from "../../plugin-api/errors.ts";

export const mcpErrors = defineErrors({
  MCP_WRITE_SCOPE_REQUIRED: { status: 403, message: "Tool {tool} changes the workspace and needs the write scope: {how}" },
  MCP_SERVER_UNREACHABLE: { status: 503, message: "The Muster server did not answer {method} {path}: {reason}" },
  // The two below are a plugin's mistake: the MCP server is not built (fail closed) until the plugin is fixed or removed.
  MCP_TOOL_INVALID: { status: 500, message: "MCP tool {tool} of plugin {plugin} is refused: {reason}" },
  MCP_TOOL_NEEDS_SESSION: { status: 500, message: "MCP tool {tool} of plugin {plugin} is refused: {method} {path} needs the human's session token, which no MCP call carries" },
});
