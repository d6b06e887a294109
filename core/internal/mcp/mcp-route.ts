// Streamable HTTP at /mcp, stateless: every POST is answered on its own (a fresh server
// and transport per request, JSON responses, no session id), so nothing is kept between
// requests and any number of clients can call. The host's checks run first, as on every
// path: Host header (DNS rebinding), Origin allow list, MUSTER_API_TOKEN.
//
// Scopes: reads like the API (open on loopback); write tools need the human's session
// token in `X-Session-Token` on the request. The tools' own API calls never carry it.
import { z } from "zod";
import type { PluginRouter } from "../../plugin-api/http.ts";
import type { Contributed } from "../../plugin-api/extension-points.ts";
import type { McpToolSpec } from "../../plugin-api/host-points.ts";
import { reachableUrl } from "../instance-lock.ts";
import type { SessionToken } from "../session-token.ts";
import { httpApi } from "./http-api.ts";
import type { OpenApiDocument } from "./mcp-server.ts";
import { mcpTools, type McpTool } from "./tools.ts";

export const MCP_PATH = "/mcp";

export interface McpRouteDeps {
  version: string;
  url: () => string;
  session: SessionToken;
  /** This server's OpenAPI document (the tools' schemas). */
  openapi: () => OpenApiDocument;
  /** The tools the plugins contributed (`hostPoints.mcpTools`), in plugin start order. */
  tools: () => readonly Contributed<McpToolSpec>[];
}

// The MCP SDK (with ajv and zod-to-json-schema, ~150 modules) is imported on the first /mcp
// request, not at start: most servers never get one, and cold start pays for every module.
const loadMcp = () =>
  Promise.all([import("@modelcontextprotocol/sdk/server/streamableHttp.js"), import("./mcp-server.ts")]).then(([transport, server]) => ({
    StreamableHTTPServerTransport: transport.StreamableHTTPServerTransport,
    createMusterMcpServer: server.createMusterMcpServer,
  }));

export function mountMcpRoute(router: PluginRouter, deps: McpRouteDeps): void {
  // Built on first use: every route is mounted by then, and none is added later.
  let openapi: OpenApiDocument | undefined;
  let tools: McpTool[] | undefined;
  router.post(
    MCP_PATH,
    {
      summary: "MCP over Streamable HTTP (stateless, JSON responses): Muster's read tools, and its write tools with X-Session-Token",
      description: "JSON-RPC messages of the Model Context Protocol (docs/mcp.md). GET and DELETE answer 405: there are no sessions to stream or end.",
      // Any JSON: the transport checks it is JSON-RPC and answers in JSON-RPC's own error shape.
      body: z.unknown(),
      raw: true,
      tags: ["host", "mcp"],
    },
    async ({ body, koa, agentId }) => {
      const { StreamableHTTPServerTransport, createMusterMcpServer } = await loadMcp();
      const write = deps.session.matches(koa.get("x-session-token"));
      const headers: Record<string, string> = {};
      const authorization = koa.get("authorization");
      if (authorization) headers.authorization = authorization; // MUSTER_API_TOKEN, already checked
      if (agentId) headers["x-agent-id"] = agentId;
      const server = createMusterMcpServer({
        tools: (tools ??= mcpTools(deps.tools())),
        openapi: (openapi ??= deps.openapi()),
        api: httpApi({ baseUrl: reachableUrl(deps.url()), headers }),
        write,
        writeScopeHint: "send the session token ($MUSTER_HOME/session-token) as the X-Session-Token header of the /mcp requests, or use `muster mcp --write` (stdio)",
        version: deps.version,
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      koa.respond = false;
      koa.res.once("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      // The router already read the body (size limit, JSON checks); the transport takes it parsed.
      await transport.handleRequest(koa.req, koa.res, body);
    },
  );
}
