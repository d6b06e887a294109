// Issue 23: the MCP tools are the plugins' contributions to `hostPoints.mcpTools`; the host
// holds none. A plugin's tool is listed and callable on both transports (a test plugin over
// /mcp, a configured package through `muster mcp`), and the host's rules hold for any
// contribution: no tool reaches an operation that needs the session token, a read tool only
// reads, and names are unique.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { contribute, definePlugin, hostPoints, z, type McpToolSpec } from "@muster/plugin";
import { removeHome, withTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { MAIN, runMuster } from "../cli/run-muster.ts";
import { startOutcome } from "../helpers/start-error.ts";

const t = suite("MCP tools contributed by plugins");
const base = { version: "1.0.0", host: "^1.0.0" } as const;

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } };
/** An MCP `initialize` over /mcp: where a server that cannot be built says why. */
const initialize = (h: TestHost) => h.json("/mcp", { method: "POST", headers: { accept: "application/json, text/event-stream" }, body: INIT });

async function connect(h: TestHost, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "muster-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers } }));
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const errorOf = (result: CallToolResult) => (result.structuredContent as { error?: { code: string; message: string } } | undefined)?.error;

const tool = (spec: McpToolSpec) => contribute(hostPoints.mcpTools, spec);

/** A plugin with a read route and a write route, and a tool for each. */
function echoPlugin(kept: string[]) {
  return definePlugin({
    id: "echo",
    ...base,
    paths: ["/api/echo"],
    routes: (router) => {
      router.get("/api/echo", { summary: "Echoes a word", query: z.strictObject({ word: z.string().min(1) }) }, ({ query }) => ({ ok: true, word: query.word }));
      router.post("/api/echo", { summary: "Keeps a word", body: z.strictObject({ word: z.string().min(1) }), status: 201 }, ({ body }) => {
        kept.push(body.word);
        return { ok: true, kept: body.word };
      });
    },
    contributions: [
      tool({ name: "echo_say", title: "Echo a word", scope: "read", method: "GET", path: "/api/echo" }),
      tool({ name: "echo_keep", title: "Keep a word", scope: "write", method: "POST", path: "/api/echo" }),
    ],
  });
}

t("a plugin's contributed tools are listed after the built-ins' of their scope, and called like theirs (validation, write scope)", async () => {
  const kept: string[] = [];
  await withTestHost({ extraPlugins: [echoPlugin(kept)] }, async (h) => {
    const reader = await connect(h);
    const writer = await connect(h, { "x-session-token": h.token });
    try {
      const names = (await reader.listTools()).tools.map((x) => x.name);
      assert.ok(names.includes("echo_say") && names.includes("echo_keep"), names.join(", "));
      assert.ok(names.indexOf("activities_list") < names.indexOf("echo_say"), "read tools in plugin start order");
      assert.ok(names.indexOf("echo_say") < names.indexOf("tasks_create"), "every read tool before the write tools");
      assert.is(names.at(-1), "echo_keep");
      const said = await call(reader, "echo_say", { word: "crew" });
      assert.not.ok(said.isError);
      assert.equal(said.structuredContent, { ok: true, word: "crew" });
      const bad = await call(reader, "echo_say", { word: "" });
      assert.equal(errorOf(bad), (await h.json("/api/echo?word=")).body.error, "the route's own refusal");
      const refused = await call(reader, "echo_keep", { word: "nope" });
      assert.is(errorOf(refused)?.code, "MCP_WRITE_SCOPE_REQUIRED");
      assert.equal(kept, []);
      const stored = await call(writer, "echo_keep", { word: "yes" });
      assert.not.ok(stored.isError);
      assert.equal(kept, ["yes"]);
    } finally {
      await Promise.all([reader.close(), writer.close()]);
    }
  });
});

t("a contributed tool whose operation needs the session token stops the start (MCP_TOOL_NEEDS_SESSION): nothing is served", async () => {
  const shredder = definePlugin({
    id: "shredder",
    ...base,
    paths: ["/api/shred"],
    routes: (router) => {
      router.post("/api/shred", { summary: "Shreds everything (the human's session only)", auth: "session", body: z.strictObject({}) }, () => ({ ok: true }));
    },
    contributions: [tool({ name: "shred_all", title: "Shred everything", scope: "write", method: "POST", path: "/api/shred" })],
  });
  const error = await startOutcome([shredder]);
  assert.is(error.code, "MCP_TOOL_NEEDS_SESSION");
  assert.match(error.message, /shred_all of plugin shredder .*POST \/api\/shred/);
  const deleter = definePlugin({
    id: "deleter",
    ...base,
    paths: ["/api/things"],
    routes: (router) => {
      router.delete("/api/things/:id", { summary: "Deletes a thing", params: z.strictObject({ id: z.string() }) }, () => ({ ok: true }));
    },
    contributions: [tool({ name: "things_delete", title: "Delete a thing", scope: "write", method: "POST", path: "/api/things/{id}" })],
  });
  assert.is((await startOutcome([deleter])).code, "started", "a POST tool beside a DELETE route of the same path is fine");
});

t("a read tool that is not a GET, or a name another plugin took, stops the start (MCP_TOOL_INVALID)", async () => {
  const cases: [string, McpToolSpec, RegExp][] = [
    ["a read POST", { name: "echo_sneak", title: "Keeps a word in a read session", scope: "read", method: "POST", path: "/api/echo" }, /echo_sneak of plugin sneaky .*"read" \(GET only\)/],
    ["a taken name", { name: "echo_say", title: "Echo again", scope: "read", method: "GET", path: "/api/echo" }, /echo_say of plugin sneaky .*plugin "echo" contributes a tool of this name/],
    ["a name that is not snake_case", { name: "Echo-Say", title: "Echo", scope: "read", method: "GET", path: "/api/echo" }, /snake_case/],
  ];
  for (const [label, spec, message] of cases) {
    const sneaky = definePlugin({ id: "sneaky", ...base, contributions: [tool(spec)] });
    const error = await startOutcome([echoPlugin([]), sneaky]);
    assert.is(error.code, "MCP_TOOL_INVALID", label);
    assert.match(error.message, message, label);
  }
});

/** A plugin package as `muster plugins add` leaves it: in the home's node_modules, enabled in muster.config.json. */
function installPackage(home: string, name: string, source: string): void {
  const dir = join(home, "node_modules", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "0.1.0", type: "module", main: "index.js", peerDependencies: { "@muster/plugin": "^1.0.0" }, muster: { plugin: true, host: "^1.0.0" } }));
  writeFileSync(join(dir, "index.js"), source);
  writeFileSync(join(home, "muster.config.json"), JSON.stringify({ plugins: [name] }));
}

/** A package whose one tool maps to `route` (`auth` makes it need the session token). */
const packageSource = (auth: string) => `import { contribute, definePlugin, hostPoints, z } from "@muster/plugin";
export default definePlugin({
  id: "parrot", version: "0.1.0", host: "^1.0.0", paths: ["/api/parrot"],
  routes: (router) => router.get("/api/parrot", { summary: "Repeats a word", ${auth}query: z.strictObject({ word: z.string().min(1) }) }, ({ query }) => ({ ok: true, said: query.word + "!" })),
  contributions: [contribute(hostPoints.mcpTools, { name: "parrot_say", title: "Repeat a word", scope: "read", method: "GET", path: "/api/parrot" })],
});
`;

t("muster mcp serves a configured package's tool (listed in its --help too); a package tool that needs the session token stops the server's start", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-mcp-3p-"));
  try {
    installPackage(home, "muster-plugin-parrot", packageSource(""));
    const env = { MUSTER_HOME: home, LOG_LEVEL: "silent" };
    const help = await runMuster(["mcp", "--help"], env);
    assert.is(help.status, 0, help.stderr);
    assert.match(help.stdout, /Read tools: .*activities_list.*parrot_say\n/);
    await withTestHost({ home, plugins: [], config: { plugins: ["muster-plugin-parrot"] } }, async (h) => {
      const client = new Client({ name: "muster-test", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, "mcp"], env: { ...(process.env as Record<string, string>), ...env }, stderr: "ignore" }));
      try {
        assert.equal((await client.listTools()).tools.map((x) => x.name), ["parrot_say"], "only what this server serves");
        const said = await call(client, "parrot_say", { word: "hello" });
        assert.not.ok(said.isError);
        assert.equal(said.structuredContent, { ok: true, said: "hello!" });
      } finally {
        await client.close();
      }
    });
    // Another package name: this process keeps the first one's module.
    installPackage(home, "muster-plugin-parrot-strict", packageSource('auth: "session", '));
    // The server refuses to start with it, so `muster mcp` never gets a session-only tool to serve.
    let refusal = "";
    await withTestHost({ home, plugins: [], config: { plugins: ["muster-plugin-parrot-strict"] } }, () => {}).catch((error: Error) => void (refusal = error.message));
    assert.match(refusal, /^MCP tool parrot_say of plugin parrot is refused: GET \/api\/parrot needs the human's session token/);
  } finally {
    removeHome(home);
  }
});

t.run();
