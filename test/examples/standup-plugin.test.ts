// The third-party example examples/muster-plugin-standup, as docs/plugins.md walks an author
// through it: every command of the walkthrough runs as written, in order, in bash, from a
// scratch copy of the checkout (its own .muster home; the copied example is built outside it
// against @muster/plugin packed by `npm pack ./core/plugin-api`, installed from npm's cache,
// packed, and added with `muster plugins add <tarball>`). Two things differ from a reader's
// terminal: `npm start` is this process's host on the same home (test/helpers/start-test-host.ts;
// the test kit @muster/plugin/testing replaces it), so the curl commands get its port in place
// of 3333; and no gateway runs (GATEWAY_URL=off). Then each contribution is checked through
// the public surface: the route in /api/openapi.json and working, the family in /metrics, the
// tools in the MCP tool list, the command in `muster --help` and runnable, the check in
// `muster doctor --json`, the panel in GET /dashboard/panels with its module served.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";
import { ROOT, NODE_ENV } from "../helpers/plugin-package.ts";
import { walkthroughBlocks } from "./doc-examples.ts";
import { chromiumMissing, withBrowser } from "../browser/browser.ts";
import { openConsole } from "../browser/console.ts";
import { scaled } from "../helpers/time-scale.ts";

setTimeout(() => { console.error("standup-plugin.test.ts timed out"); process.exit(1); }, scaled(420_000)).unref();

const tmp = mkdtempSync(join(tmpdir(), "muster-standup-example-"));
const checkout = join(tmp, "muster");
const home = join(checkout, ".muster");
const [build, install, start, tryIt] = walkthroughBlocks(ROOT, "docs/plugins.md", "standup");
/** The reader's shell: Node 24 first on PATH, npm's cache for registry packages, no gateway, Muster's defaults otherwise. */
const { MUSTER_HOME: _home, WORKSPACE_DIR: _workspace, PORT: _port, MUSTER_API_TOKEN: _token, ...inherited }: NodeJS.ProcessEnv = NODE_ENV;
const env = { ...inherited, npm_config_prefer_offline: "true", GATEWAY_URL: "off", MUSTER_START_BUNDLE: "off", LOG_LEVEL: "silent" };

interface Ran { command: string; status: number | null; stdout: string; stderr: string }
interface Ctx { h: TestHost; ran: Ran[]; tried: Map<string, Ran> }
const t = suite<Ctx>("example plugin: standup, through the docs/plugins.md walkthrough");

/** A copy of the checkout as a reader has it: the kit copied (`npm pack` builds it in place), everything else linked. */
function scratchCheckout(): void {
  mkdirSync(join(checkout, "core"), { recursive: true });
  for (const name of ["node_modules", "plugins", "package.json"]) symlinkSync(join(ROOT, name), join(checkout, name));
  for (const name of readdirSync(join(ROOT, "core"))) if (name !== "plugin-api") symlinkSync(join(ROOT, "core", name), join(checkout, "core", name));
  cpSync(join(ROOT, "core/plugin-api"), join(checkout, "core/plugin-api"), { recursive: true, filter: (src) => !/\/(dist|node_modules)$/.test(src) });
  symlinkSync(join(ROOT, "node_modules"), join(checkout, "core/plugin-api/node_modules"));
  cpSync(join(ROOT, "examples/muster-plugin-standup"), join(checkout, "examples/muster-plugin-standup"), {
    recursive: true,
    filter: (src) => !/\/(dist|node_modules|vendor)$|\.tgz$|package-lock\.json$/.test(src),
  });
}

/** Runs one script in bash from the checkout (asynchronously: the host in this process keeps serving). */
function bash(script: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-e", "-c", script], { cwd: checkout, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (status) => resolve({ command: script, status, stdout, stderr }));
  });
}

const localPort = (command: string, h: TestHost) => command.replace(/(127\.0\.0\.1|localhost):3333/g, new URL(h.url).host);
const failure = (ran: Ran) => `${ran.command}\nexited ${ran.status}\n${ran.stdout.slice(-2000)}\n${ran.stderr.slice(-3000)}`;

t.before(async (ctx) => {
  try {
    await walkThrough(ctx);
  } catch (error) {
    console.error(error); // uvu reports a failed hook without its error
    throw error;
  }
});

async function walkThrough(ctx: Ctx): Promise<void> {
  scratchCheckout();
  ctx.ran = [];
  // The build block is one script: its `cd`s carry over from line to line, as in a terminal.
  for (const block of [build!, install!]) {
    const ran = await bash(block.commands.join("\n"));
    ctx.ran.push(ran);
    assert.is(ran.status, 0, `${block.where}: ${failure(ran)}`);
  }
  assert.equal(start!.commands, ["npm start"], "the walkthrough starts the server with npm start");
  ctx.h = await startTestHost({ home, workspace: join(home, "workspace") });
  // Each command of the last block on its own, so that one awaiting another part of Muster fails only its own test.
  ctx.tried = new Map();
  for (const command of tryIt!.commands) ctx.tried.set(command, await bash(localPort(command, ctx.h)));
}

t.after(async (ctx) => {
  await ctx.h?.stop();
  removeHome(tmp);
});

const tried = (ctx: Ctx, start: string): Ran => {
  const found = [...ctx.tried.entries()].find(([command]) => command.startsWith(start));
  assert.ok(found, `the walkthrough runs a command starting with "${start}"`);
  return found![1];
};

/** `GET /api/standup`: the example plugin's own route, outside the OpenAPI the SDK is generated from. */
type StandupNotes = { notes: { agent: string; today: string; blockers: string }[] };

t("it is built from its tarball outside the checkout and installed with muster plugins add, as the walkthrough does", async ({ h, ran }) => {
  assert.ok(existsSync(join(tmp, "muster-plugin-standup/muster-plugin-standup-0.1.0.tgz")), "npm pack wrote the tarball");
  assert.ok(existsSync(join(tmp, "muster-plugin-standup/dist/index.d.ts")), "prepack built JavaScript and declarations");
  assert.match(ran[1]!.stdout, /Enabled plugin "standup" \(npm:muster-plugin-standup@0\.1\.0\)/);
  assert.equal(JSON.parse(readFileSync(join(home, "muster.config.json"), "utf8")).plugins, ["muster-plugin-standup"]);
  const plugin = (await h.json("/api/plugins")).body.plugins.find((p) => p.id === "standup");
  assert.equal({ source: plugin?.source, state: plugin?.state }, { source: "npm:muster-plugin-standup@0.1.0", state: "started" });
});

t("its route is in /api/openapi.json and works: the walkthrough's note is listed, a note needs an agent", async (ctx) => {
  const { h } = ctx;
  const paths = (await h.json("/api/openapi.json")).body.paths;
  assert.ok(paths["/api/standup"]?.post && paths["/api/standup"]?.get, "both operations are documented");
  const posted = tried(ctx, "curl -s -X POST");
  assert.is(posted.status, 0, failure(posted));
  const note = JSON.parse(posted.stdout).note;
  assert.equal({ agent: note.agent, blockers: note.blockers }, { agent: "builder", blockers: "Waiting for the design review" });
  const listed = JSON.parse(tried(ctx, "curl -s localhost:3333/api/standup").stdout);
  assert.equal(listed.notes.map((n: { agent: string }) => n.agent), ["builder"]);
  // Posting again the same day replaces the agent's note (one per agent and day).
  const again = await h.json("/api/standup", { method: "POST", headers: { "x-agent-id": "builder" }, body: { yesterday: "Indexed the docs", today: "Review the panel" } });
  assert.is(again.status, 201);
  assert.equal((await h.json<StandupNotes>("/api/standup")).body.notes.map((n) => [n.today, n.blockers]), [["Review the panel", ""]]);
  const anonymous = await h.json("/api/standup", { method: "POST", body: { yesterday: "x", today: "y" } });
  assert.is(anonymous.status, 400);
  assert.is(anonymous.body.error!.code, "STANDUP_AGENT_REQUIRED");
  const bad = await h.json("/api/standup?day=tomorrow");
  assert.is(bad.status, 400);
  assert.is(bad.body.error!.code, "VALIDATION_FAILED");
  await h.json("/api/standup", { method: "POST", headers: { "x-agent-id": "builder" }, body: { yesterday: "Indexed the docs", today: "Ship the search panel", blockers: "Waiting for the design review" } });
});

t("its command is in muster --help and runs: muster standup prints the day's notes from the running server", async (ctx) => {
  const help = ctx.ran[1]!.stdout;
  assert.match(help, /standup \[--day <date>\] \[--json\]\s+the crew's stand-up notes/);
  const standup = tried(ctx, "npm run muster -- standup");
  assert.is(standup.status, 0, failure(standup));
  assert.match(standup.stdout, /Stand-up \d{4}-\d{2}-\d{2}: 1 note\n\nbuilder\n {2}yesterday: Indexed the docs\n {2}today: {5}Ship the search panel\n {2}BLOCKED: {3}Waiting for the design review/);
  const json = await bash("npm run --silent muster -- standup --json --day 2020-01-01");
  assert.is(json.status, 0, failure(json));
  assert.equal(JSON.parse(json.stdout), { ok: true, day: "2020-01-01", notes: [] });
  const usage = await bash("npm run --silent muster -- standup --week || echo \"exit $?\"");
  assert.match(usage.stdout, /exit 2/);
});

// Awaits the metrics consumer (GET /metrics reads METRIC_SOURCES contributions).
t("its metric family is in /metrics", async (ctx) => {
  const grep = tried(ctx, "curl -s localhost:3333/metrics");
  assert.is(grep.status, 0, failure(grep));
  const metrics = await (await ctx.h.request("/metrics")).text();
  assert.match(metrics, /# TYPE muster_standup_notes_today gauge/);
  assert.match(metrics, /muster_standup_notes_today\{blocked="true"\} 1/);
  assert.match(metrics, /muster_standup_notes_today\{blocked="false"\} 0/);
});

// Awaits the MCP consumer (/mcp lists hostPoints.mcpTools contributions; merged on main as of this writing).
t("its MCP tools are in the MCP tool list and call its route: read for anyone, write with the session token as the agent", async ({ h }) => {
  const connect = async (headers: Record<string, string>) => {
    const client = new Client({ name: "standup-example-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers } }));
    return client;
  };
  const reader = await connect({});
  const agent = await connect({ "x-session-token": h.token, "x-agent-id": "forge" });
  try {
    const names = (await reader.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes("standup_list") && names.includes("standup_post"), names.join(", "));
    const listed = (await reader.callTool({ name: "standup_list", arguments: {} })) as CallToolResult;
    assert.not.ok(listed.isError, JSON.stringify(listed));
    assert.match((listed.content[0] as { text: string }).text, /Waiting for the design review/);
    const refused = (await reader.callTool({ name: "standup_post", arguments: { yesterday: "a", today: "b" } })) as CallToolResult;
    assert.ok(refused.isError, "a write tool needs the session token");
    const posted = (await agent.callTool({ name: "standup_post", arguments: { yesterday: "Reviewed the index", today: "Pair with builder" } })) as CallToolResult;
    assert.not.ok(posted.isError, JSON.stringify(posted));
    assert.equal((await h.json<StandupNotes>("/api/standup")).body.notes.map((n) => n.agent), ["builder", "forge"]);
  } finally {
    await Promise.all([reader.close(), agent.close()]);
  }
});

// Awaits the doctor consumer (`muster doctor` runs hostPoints.doctorChecks contributions of
// the built-in and the installed plugins).
t("its check is in muster doctor --json: the blocked agent is reported", async (ctx) => {
  const doctor = tried(ctx, "npm run muster -- doctor");
  assert.is(doctor.status, 0, failure(doctor));
  const json = await bash("npm run --silent muster -- doctor --json");
  const report = JSON.parse(json.stdout) as { checks: { id: string; status: string; detail: string }[] };
  const check = report.checks.find((c) => c.id === "standup.blockers");
  assert.ok(check, report.checks.map((c) => c.id).join(", "));
  assert.is(check!.status, "warn");
  assert.match(check!.detail, /^\d stand-up notes? today; blocked: builder$/);
});

// Awaits the dashboard consumer (GET /dashboard/panels lists CONSOLE_PANELS contributions and serves their modules).
t("its panel is in GET /dashboard/panels and its module is served", async (ctx) => {
  const listed = JSON.parse(tried(ctx, "curl -s localhost:3333/dashboard/panels").stdout);
  const panel = listed.panels.find((p: { plugin: string }) => p.plugin === "standup");
  assert.equal(panel, { plugin: "standup", id: "today", title: "Stand-up", module: "/dashboard/plugins/standup/today.js", events: ["standup.note.posted"] });
  const module = await ctx.h.request(panel.module);
  assert.is(module.status, 200);
  assert.match(module.headers.get("content-type") ?? "", /javascript/);
  assert.is(await module.text(), readFileSync(join(ROOT, "examples/muster-plugin-standup/panel/today.js"), "utf8"));
});

// Awaits the console consumer (GET /dashboard/pages lists CONSOLE_PAGES contributions; the console opens them at /console/<id>).
t("its page is in GET /dashboard/pages and the console opens it with the day's notes, agents' text as text", async (ctx) => {
  const { pages } = (await (await ctx.h.request("/dashboard/pages")).json()) as { pages: { plugin: string; id: string; path: string; module: string; group: string }[] };
  const page = pages.find((p) => p.plugin === "standup");
  assert.equal(page && { id: page.id, path: page.path, module: page.module, group: page.group }, { id: "standup", path: "/console/standup", module: "/dashboard/plugins/standup/standup-page.js", group: "work" });
  const missing = chromiumMissing();
  if (missing) assert.unreachable(missing);
  const note = { yesterday: "Read <img src=x onerror=\"window.__xss=1\">", today: "Ship the page", blockers: "" };
  const posted = await ctx.h.json("/api/standup", { method: "POST", headers: { "x-agent-id": "scout" }, body: note });
  assert.is(posted.status, 201, JSON.stringify(posted.body));
  await withBrowser(async (browser) => {
    const tab = await openConsole(browser, ctx.h, "/console/standup");
    await tab.getByRole("link", { name: "Stand-up" }).waitFor();
    assert.is(await tab.getByRole("link", { name: "Stand-up" }).getAttribute("aria-current"), "page");
    const table = tab.getByRole("table");
    await table.getByRole("cell", { name: "scout" }).waitFor();
    assert.ok((await table.textContent())!.includes(note.yesterday), "the note's text is shown as written");
    assert.is(await tab.locator("img[src='x']").count(), 0);
    assert.is(await tab.evaluate("window.__xss"), undefined);
  });
});

t.run();
