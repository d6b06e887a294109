// `muster mcp`: the MCP server on stdio, for agents that start their tools as processes.
// It does not open the database: it finds the running server of this MUSTER_HOME (its
// instance lock) and every tool is an HTTP call to it. stdout carries the protocol only.
import type { MusterConfig } from "../config.ts";
import { packageVersion } from "../package-version.ts";
import { EXIT, parseCommandArgs, defineCliCommand, UsageError, type CliCommand, type CommandStreams } from "../cli/command.ts";
import { connectToServer } from "../cli/server-client.ts";
import { httpApi } from "./http-api.ts";
import type { OpenApiDocument } from "./mcp-server.ts";
import { toolNames } from "./tools.ts";

const AGENT_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

const HELP = `Usage: muster mcp [--write] [--agent <id>]

Serves Muster's MCP tools on stdin/stdout (the Model Context Protocol's stdio transport)
for the running server of this MUSTER_HOME, which it calls over HTTP (start it first).

  --write        also run the write tools; without it they are refused
  --agent <id>   send X-Agent-Id: <id> with every call (the agent's identity)

Read tools:  ${toolNames("read")}
Write tools: ${toolNames("write")}
No tool decides an approval. See docs/mcp.md.
Exit codes: 0 the client closed stdin; 1 no server to serve for; 2 usage error.`;

export function mcpCommand(config: () => MusterConfig): CliCommand {
  return defineCliCommand({
    name: "mcp",
    usage: [{ form: "mcp [--write]", summary: "MCP server on stdio for the running server (docs/mcp.md)" }],
    help: HELP,
    body: (args, io) => serveStdio(args, io, config()),
  });
}

async function serveStdio(args: string[], io: CommandStreams, config: MusterConfig): Promise<number> {
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
