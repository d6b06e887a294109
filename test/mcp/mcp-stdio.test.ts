// `muster mcp` (stdio) with the official MCP client spawning the real command: it serves
// the running server of its MUSTER_HOME over HTTP (no database of its own), write tools
// only with --write, inputs validated by the HTTP route, and no server means exit 1.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { removeHome, withTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { MAIN, ROOT, runMuster } from "../cli/run-muster.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("muster mcp (stdio)");

async function spawnMcp(h: TestHost, flags: string[] = [], extraEnv: Record<string, string> = {}): Promise<Client> {
  const env = Object.fromEntries(Object.entries({ ...process.env, MUSTER_HOME: h.home, LOG_LEVEL: "silent", ...extraEnv }).filter((e): e is [string, string] => e[1] !== undefined));
  const client = new Client({ name: "muster-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, "mcp", ...flags], env, stderr: "ignore" }));
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const errorOf = (result: CallToolResult) => (result.structuredContent as { error?: { code: string; message: string } } | undefined)?.error;

t("read tools work; write tools are refused without --write and nothing is written", async () => {
  await withTestHost(async (h) => {
    await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: "visible over stdio" } });
    const client = await spawnMcp(h);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((x) => x.name === "tasks_list") && tools.some((x) => x.name === "tasks_create"));
      const list = await call(client, "tasks_list", {});
      assert.not.ok(list.isError);
      assert.equal(JSON.parse((list.content[0] as { text: string }).text).map((x: { title: string }) => x.title), ["visible over stdio"]);
      const refused = await call(client, "tasks_create", { title: "nope" });
      assert.ok(refused.isError);
      assert.is(errorOf(refused)?.code, "MCP_WRITE_SCOPE_REQUIRED");
      assert.match(errorOf(refused)!.message, /muster mcp --write/);
      assert.is((await h.json<ApiBody<"getTasks">>("/api/tasks")).body.length, 1);
    } finally {
      await client.close();
    }
  });
});

t("the documented configuration runs from anywhere: the system's node with <checkout>/bin/muster.js, started outside the checkout", async () => {
  await withTestHost(async (h) => {
    await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: "seen from anywhere" } });
    // As an agent's MCP client starts it: `node` from the user's PATH (not this checkout's
    // pinned one; the shim picks that itself), in a directory that is not the checkout.
    const path = (process.env.PATH ?? "").split(":").filter((dir) => !dir.startsWith(ROOT)).join(":");
    const env = Object.fromEntries(Object.entries({ ...process.env, PATH: path, MUSTER_HOME: h.home, LOG_LEVEL: "silent" }).filter((e): e is [string, string] => e[1] !== undefined));
    const client = new Client({ name: "muster-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: "node", args: [join(ROOT, "bin/muster.js"), "mcp", "--write", "--agent", "aide"], env, cwd: tmpdir(), stderr: "ignore" }));
    try {
      const list = await call(client, "tasks_list", {});
      assert.not.ok(list.isError);
      assert.equal(JSON.parse((list.content[0] as { text: string }).text).map((x: { title: string }) => x.title), ["seen from anywhere"]);
    } finally {
      await client.close();
    }
  });
});

t("with --write the task exists over HTTP afterwards; bad input gets the route's own error", async () => {
  await withTestHost(async (h) => {
    const client = await spawnMcp(h, ["--write", "--agent", "agent-7"]);
    try {
      const created = await call(client, "tasks_create", { title: "from stdio" });
      assert.not.ok(created.isError);
      const id = (created.structuredContent as { id: string }).id;
      assert.is((await h.json<ApiBody<"getTasksById">>(`/api/tasks/${id}`)).body.title, "from stdio");
      const bad = await call(client, "tasks_create", { title: "x", priority: "urgent" });
      const http = await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: "x", priority: "urgent" } });
      assert.is(http.status, 400);
      assert.equal(errorOf(bad), http.body.error);
      // A request is all an agent gets: the approval waits for a human.
      const requested = await call(client, "approvals_request", { title: "t", type: "deploy", requestedBy: "agent-7", context: "c" });
      assert.not.ok(requested.isError);
      assert.is((requested.structuredContent as { approval: { status: string } }).approval.status, "pending");
    } finally {
      await client.close();
    }
  });
});

t("with MUSTER_API_TOKEN in its environment it reaches a server that requires the bearer token", async () => {
  const apiToken = "mcp-stdio-api-token-0123456789";
  await withTestHost({ config: { apiToken } }, async (h) => {
    const client = await spawnMcp(h, ["--write"], { MUSTER_API_TOKEN: apiToken });
    try {
      const created = await call(client, "tasks_create", { title: "through the bearer" });
      assert.not.ok(created.isError, JSON.stringify(created.content));
      const listed = await h.json<ApiBody<"getTasks">>("/api/tasks", { headers: { authorization: `Bearer ${apiToken}` } });
      assert.equal(listed.body.map((x: { title: string }) => x.title), ["through the bearer"]);
    } finally {
      await client.close();
    }
  });
});

t("without a running server it exits 1 with a coded message; bad flags exit 2", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-mcp-"));
  try {
    const none = await runMuster(["mcp"], { MUSTER_HOME: home, PORT: "1" });
    assert.is(none.status, 1);
    assert.match(none.stderr, /^muster mcp: CLI_SERVER_NOT_RUNNING: /);
    assert.is(none.stdout, "", "stdout carries the protocol only");
    const bad = await runMuster(["mcp", "--writ"], { MUSTER_HOME: home });
    assert.is(bad.status, 2);
    const agent = await runMuster(["mcp", "--agent", "not an id"], { MUSTER_HOME: home });
    assert.is(agent.status, 2);
    assert.match(agent.stderr, /--agent must be an agent id/);
  } finally {
    removeHome(home);
  }
});

t.run();
