// `muster mcp`: the MCP server on stdio, for agents that start their tools as processes.
// It does not open the database: it finds the running server of this MUSTER_HOME (its
// instance lock) and every tool is an HTTP call to it. stdout carries the protocol only.
// The tools are the plugins' contributions, read from their definitions (the built-ins and
// the configured packages, in the host's start order), so no server code runs here.
import type { PluginDefinition } from "../../plugin-api/define-plugin.ts";
import { hostPoints } from "../../plugin-api/host-points.ts";
import { PLUGIN_API_VERSION } from "../../plugin-api/index.ts";
import type { MusterConfig } from "../config.ts";
import { staticContributions } from "../contributions.ts";
import { HOST_PATHS } from "../host-routes.ts";
import { orderPlugins } from "../plugin-graph.ts";
import { configuredPlugins } from "../plugin-loader.ts";
import { packageVersion } from "../package-version.ts";
import { EXIT, parseCommandArgs, runCommand, UsageError, type CliCommand, type CommandStreams } from "../cli/command.ts";
import { connectToServer } from "../cli/server-client.ts";
import { httpApi } from "./http-api.ts";
import type { OpenApiDocument } from "./mcp-server.ts";
import { mcpTools, toolNames, type McpTool } from "./tools.ts";

const AGENT_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

const help = (tools: readonly McpTool[]) => `Usage: muster mcp [--write] [--agent <id>]

Serves Muster's MCP tools on stdin/stdout (the Model Context Protocol's stdio transport)
for the running server of this MUSTER_HOME, which it calls over HTTP (start it first).

  --write        also run the write tools; without it they are refused
  --agent <id>   send X-Agent-Id: <id> with every call (the agent's identity)

Read tools:  ${toolNames(tools, "read")}
Write tools: ${toolNames(tools, "write")}
No tool decides an approval. See docs/mcp.md.
Exit codes: 0 the client closed stdin; 1 no server to serve for, or a plugin's tool breaks
the rules (MCP_TOOL_INVALID, MCP_TOOL_NEEDS_SESSION); 2 usage error.`;

/** `builtIns`: the plugins Muster is assembled from (the CLI's); configured packages are added as the host adds them. */
export function mcpCommand(config: () => MusterConfig, builtIns: readonly PluginDefinition[]): CliCommand {
  const command: CliCommand = {
    name: "mcp",
    usage: [{ form: "mcp [--write]", summary: "MCP server on stdio for the running server (docs/mcp.md)" }],
    // The built-ins' tools, worked out only when asked (every `muster` command builds this object).
    get help() {
      return help(toolsOf(builtIns));
    },
    run: async (args, io) => {
      let current: MusterConfig;
      let tools: McpTool[];
      try {
        current = config();
        tools = toolsOf(await configuredPlugins(builtIns, current, "throw"));
      } catch (error) {
        // A configured package that does not load, or a tool that breaks the rules: reported as any command's error.
        return runCommand(command, [], io, () => Promise.reject(error));
      }
      return runCommand({ name: command.name, help: help(tools) }, args, io, () => serveStdio(args, io, current, tools));
    },
  };
  return command;
}

/** Their MCP tools in the order the server lists them (its plugins' start order). */
const toolsOf = (plugins: readonly PluginDefinition[]) => mcpTools(staticContributions(orderPlugins([...plugins], PLUGIN_API_VERSION, HOST_PATHS), hostPoints.mcpTools));

async function serveStdio(args: string[], io: CommandStreams, config: MusterConfig, tools: readonly McpTool[]): Promise<number> {
  const { values } = parseCommandArgs(args, { write: { type: "boolean" }, agent: { type: "string" } }, { min: 0, max: 0 });
  if (values.agent !== undefined && !AGENT_ID.test(values.agent)) throw new UsageError("--agent must be an agent id (letters, digits, _ . : -, at most 128)");
  const client = connectToServer(config);
  const openapi = await client.request<OpenApiDocument>("GET", "/api/openapi.json");
  const headers: Record<string, string> = {};
  if (config.apiToken) headers.authorization = `Bearer ${config.apiToken}`;
  if (values.agent) headers["x-agent-id"] = values.agent;
  // Imported here, not at the top: every `muster` command (and `muster start`) loads this file.
  const [{ createMusterMcpServer }, { StdioServerTransport }] = await Promise.all([import("./mcp-server.ts"), import("@modelcontextprotocol/sdk/server/stdio.js")]);
  const server = createMusterMcpServer({
    tools,
    openapi,
    api: httpApi({ baseUrl: client.url, headers }),
    write: Boolean(values.write),
    writeScopeHint: "the MCP server must be started as `muster mcp --write`",
    version: packageVersion,
  });
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(new StdioServerTransport());
  io.stderr.write(`muster mcp: serving ${client.url} on stdio (${values.write ? "read and write tools" : "read tools; write tools need --write"})\n`);
  await closed;
  await server.close();
  return EXIT.ok;
}
