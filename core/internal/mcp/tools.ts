// The MCP tools Muster offers: each is exactly one HTTP API operation, named here by
// method and path. The list is an allow list: no operation that needs the human's session
// token (deciding approvals, deleting) is on it, and building the server refuses one that
// would be (mcp-server.ts), so no MCP client can decide an approval.
export type McpScope = "read" | "write";

export interface McpToolSpec {
  name: string;
  title: string;
  /** Write tools change the workspace; they run only in a session that has the write scope. */
  scope: McpScope;
  method: "GET" | "POST" | "PATCH";
  /** The OpenAPI path (`{id}` for path parameters). */
  path: string;
}

export const MCP_TOOLS: readonly McpToolSpec[] = [
  { name: "tasks_list", title: "List tasks", scope: "read", method: "GET", path: "/api/tasks" },
  { name: "tasks_get", title: "Get a task", scope: "read", method: "GET", path: "/api/tasks/{id}" },
  { name: "search", title: "Search the workspace", scope: "read", method: "GET", path: "/api/search" },
  { name: "memory_daily", title: "Daily memory files", scope: "read", method: "GET", path: "/api/memory" },
  { name: "memory_longterm", title: "Long-term memory", scope: "read", method: "GET", path: "/api/memory/longterm" },
  { name: "approvals_list", title: "List approvals", scope: "read", method: "GET", path: "/api/approvals" },
  { name: "approvals_get", title: "Get an approval", scope: "read", method: "GET", path: "/api/approvals/{id}" },
  { name: "activities_list", title: "Recent activities", scope: "read", method: "GET", path: "/api/activities" },
  { name: "tasks_create", title: "Create a task", scope: "write", method: "POST", path: "/api/tasks" },
  { name: "tasks_update", title: "Update a task", scope: "write", method: "PATCH", path: "/api/tasks/{id}" },
  { name: "tasks_claim", title: "Claim a task", scope: "write", method: "POST", path: "/api/tasks/{id}/claim" },
  { name: "activities_log", title: "Log an activity", scope: "write", method: "POST", path: "/api/activities" },
  { name: "approvals_request", title: "Request a human approval", scope: "write", method: "POST", path: "/api/approvals" },
];

/** The names of the tools of one scope, comma-separated (for help texts). */
export const toolNames = (scope: McpScope) => MCP_TOOLS.filter((t) => t.scope === scope).map((t) => t.name).join(", ");
