// MCP over Streamable HTTP at /mcp, with the official MCP client: read tools for anyone the
// API serves, write tools only with the session token, inputs validated by the HTTP route
// itself (same code, message and details), no way to decide an approval, and the host's
// Host/Origin checks in front of it.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { request } from "node:http";
import { withTestHost, type TestHost } from "../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("MCP over Streamable HTTP (/mcp)");

const READ_TOOLS = ["tasks_list", "tasks_get", "search", "memory_daily", "memory_longterm", "approvals_list", "approvals_get", "activities_list"];
const WRITE_TOOLS = ["tasks_create", "tasks_update", "tasks_claim", "activities_log", "approvals_request"];

async function connect(h: TestHost, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "muster-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const errorOf = (result: CallToolResult) => (result.structuredContent as { error?: { code: string; message: string; details?: unknown } } | undefined)?.error;
const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;

t("lists the read and write tools with the route's own input schema, and no tool that decides", async () => {
  await withTestHost(async (h) => {
    const client = await connect(h);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.map((x) => x.name).sort(), [...READ_TOOLS, ...WRITE_TOOLS].sort());
      assert.not.ok(tools.some((x) => /decide|approve|reject|delete/i.test(x.name)), "nothing decides or deletes");
      for (const name of READ_TOOLS) assert.is(tools.find((x) => x.name === name)!.annotations?.readOnlyHint, true, name);
      const openapi = (await h.json("/api/openapi.json")).body;
      const body = openapi.paths["/api/tasks"]?.post?.requestBody?.content["application/json"].schema;
      const create = tools.find((x) => x.name === "tasks_create")!.inputSchema as { properties: Record<string, unknown>; required?: string[]; additionalProperties?: boolean };
      assert.equal(create.properties, body?.properties, "the schema the route validates with");
      assert.equal(create.required, body?.required);
      assert.is(create.additionalProperties, false);
    } finally {
      await client.close();
    }
  });
});

t("read tools answer what the API answers", async () => {
  await withTestHost(async (h) => {
    const created = (await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: "read me", status: "review" } })).body;
    const approval = (await h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: { title: "ship", type: "deploy", requestedBy: "agent-a", context: "c", payload: { tag: "v1" } } })).body.approval;
    const client = await connect(h);
    try {
      const list = await call(client, "tasks_list", { status: "review" });
      assert.not.ok(list.isError);
      assert.equal(JSON.parse(textOf(list)).map((x: { id: string }) => x.id), [created.id]);
      const one = await call(client, "tasks_get", { id: created.id });
      assert.is((one.structuredContent as { title: string }).title, "read me");
      const got = await call(client, "approvals_get", { id: approval.id });
      assert.equal((got.structuredContent as { approval: { payload: unknown } }).approval.payload, { tag: "v1" });
      // The task in review has its own task.review approval (dispatch's review flow) beside ours.
      const pending = (await call(client, "approvals_list", {})).structuredContent as { pendingTotal: number; pending: { id: string }[] };
      const api = (await h.json<ApiBody<"getApprovals">>("/api/approvals")).body as { pendingTotal: number; pending: { id: string }[] };
      assert.is(pending.pendingTotal, api.pendingTotal);
      assert.equal(pending.pending.map((a) => a.id), api.pending.map((a) => a.id));
      assert.ok(pending.pending.some((a) => a.id === approval.id));
      const missing = await call(client, "tasks_get", { id: "no-such-task" });
      assert.ok(missing.isError);
      assert.is(errorOf(missing)?.code, "TASK_NOT_FOUND");
      for (const id of ["..", ".", "../approvals", "%2e%2e"]) {
        const odd = await call(client, "tasks_get", { id });
        assert.ok(odd.isError, id);
        assert.match(errorOf(odd)!.code, /^(TASK_NOT_FOUND|VALIDATION_FAILED)$/, `${id} stays an id of /api/tasks/{id}, never another path`);
      }
    } finally {
      await client.close();
    }
  });
});

t("write tools are refused without the session token and run with it", async () => {
  await withTestHost(async (h) => {
    const reader = await connect(h);
    const writer = await connect(h, { "x-session-token": h.token });
    const forged = await connect(h, { "x-session-token": "f".repeat(64) });
    try {
      for (const client of [reader, forged]) {
        const refused = await call(client, "tasks_create", { title: "not allowed" });
        assert.ok(refused.isError);
        assert.is(errorOf(refused)?.code, "MCP_WRITE_SCOPE_REQUIRED");
        assert.match(textOf(refused), /^MCP_WRITE_SCOPE_REQUIRED: /);
      }
      assert.equal((await h.json<ApiBody<"getTasks">>("/api/tasks")).body, [], "nothing was written");
      const created = await call(writer, "tasks_create", { title: "from MCP", priority: "high" });
      assert.not.ok(created.isError, textOf(created));
      const id = (created.structuredContent as { id: string }).id;
      const stored = await h.json<ApiBody<"getTasksById">>(`/api/tasks/${id}`);
      assert.is(stored.status, 200);
      assert.equal([stored.body.title, stored.body.priority], ["from MCP", "high"]);
      const updated = await call(writer, "tasks_update", { id, status: "in_progress" });
      assert.is((updated.structuredContent as { status: string }).status, "in_progress");
      const logged = await call(writer, "activities_log", { agentId: "agent-a", action: "mcp_test", details: "hello" });
      assert.not.ok(logged.isError, textOf(logged));
      assert.ok((await h.json<ApiBody<"getActivities">>("/api/activities?action=mcp_test")).body.length === 1);
    } finally {
      await Promise.all([reader.close(), writer.close(), forged.close()]);
    }
  });
});

t("invalid tool input is refused by the HTTP route: same code, message and details as HTTP", async () => {
  await withTestHost(async (h) => {
    const client = await connect(h, { "x-session-token": h.token });
    try {
      const cases: [string, Record<string, unknown>, string, string][] = [
        ["tasks_create", { title: "" }, "POST", "/api/tasks"],
        ["tasks_create", { title: "x", bogus: 1 }, "POST", "/api/tasks"],
        ["tasks_create", { title: "x", status: "finished" }, "POST", "/api/tasks"],
        ["tasks_create", { title: "x", id: "chosen" }, "POST", "/api/tasks"],
        ["approvals_request", { title: "t", type: "x", requestedBy: "a", context: "c", status: "approved" }, "POST", "/api/approvals"],
        ["activities_log", { agentId: "", action: "x" }, "POST", "/api/activities"],
      ];
      for (const [tool, args, method, path] of cases) {
        const viaMcp = await call(client, tool, args);
        const viaHttp = await h.json(path, { method, body: args });
        assert.ok(viaMcp.isError, `${tool} ${JSON.stringify(args)}`);
        assert.is(viaHttp.status, 400);
        assert.equal(errorOf(viaMcp), viaHttp.body.error, `${tool} ${JSON.stringify(args)}`);
      }
      const query = await call(client, "tasks_list", { limit: "many" });
      const http = await h.json<ApiBody<"getTasks">>("/api/tasks?limit=many");
      assert.equal(errorOf(query), http.body.error);
      assert.is(errorOf(query)?.code, "VALIDATION_FAILED");
      assert.equal((await h.json<ApiBody<"getTasks">>("/api/tasks")).body, [], "no refused input wrote anything");
    } finally {
      await client.close();
    }
  });
});

t("no MCP call decides an approval, even with the session token", async () => {
  await withTestHost(async (h) => {
    const client = await connect(h, { "x-session-token": h.token });
    try {
      const requested = await call(client, "approvals_request", { title: "deploy", type: "deploy", requestedBy: "agent-a", context: "please", payload: { env: "prod" } });
      assert.not.ok(requested.isError, textOf(requested));
      const id = (requested.structuredContent as { approval: { id: string; status: string } }).approval.id;
      assert.is((requested.structuredContent as { approval: { status: string } }).approval.status, "pending");
      const decide = await call(client, "approvals_decide", { id, status: "approved" });
      assert.ok(decide.isError, "there is no such tool");
      // Every tool, pointed at the approval with a decision in its arguments.
      const { tools } = await client.listTools();
      for (const tool of tools) await call(client, tool.name, { id, status: "approved", decidedBy: "owner" });
      const after = (await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${id}`)).body.approval;
      assert.equal([after.status, after.decidedBy], ["pending", null]);
    } finally {
      await client.close();
    }
  });
});

t("the host's Host and Origin checks cover /mcp; only POST is served", async () => {
  await withTestHost(async (h) => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } };
    const post = (headers: Record<string, string>) =>
      h.json("/mcp", { method: "POST", headers: { accept: "application/json, text/event-stream", ...headers }, body: init });
    assert.is((await post({})).status, 200);
    const foreign = await post({ origin: "http://evil.example" });
    assert.is(foreign.status, 403);
    assert.is(foreign.body.error?.code, "ORIGIN_NOT_ALLOWED");
    const rebound = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${h.url}/mcp`);
      const req = request({ host: url.hostname, port: url.port, path: "/mcp", method: "POST", headers: { host: "evil.example", "content-type": "application/json", accept: "application/json, text/event-stream" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end(JSON.stringify(init));
    });
    assert.is(rebound, 403, "a rebound DNS name is refused");
    assert.is((await h.request("/mcp")).status, 405);
    assert.is((await h.request("/mcp", { method: "DELETE", session: true })).status, 405);
  });
});

t("with MUSTER_API_TOKEN, /mcp needs the bearer token and the tools' own calls carry it", async () => {
  const apiToken = "mcp-test-api-token-0123456789";
  await withTestHost({ config: { apiToken } }, async (h) => {
    const refused = await connect(h).then(
      (client) => client.close().then(() => "connected"),
      (error: Error) => error.message,
    );
    assert.match(refused, /401|UNAUTHORIZED/, "no bearer, no MCP");
    const client = await connect(h, { authorization: `Bearer ${apiToken}` });
    try {
      const list = await call(client, "tasks_list", {});
      assert.not.ok(list.isError, textOf(list));
      assert.equal(JSON.parse(textOf(list)), []);
    } finally {
      await client.close();
    }
  });
});

t.run();
