// Issue 27 item 2: every HTTP example of README.md and docs/*.md runs as written on what
// `npm install && npm start` creates. One server is started as a user starts it (`node
// core/main.ts start`, a fresh MUSTER_HOME at ./.muster of a scratch "checkout" directory,
// the workspace scaffolded from the template), connected to the fake gateway test double
// that knows the scaffolded crew; each curl command runs in bash from that directory, as
// written except for the port (the test's server has its own) and `<placeholders>`, which a
// reader fills in with an id from an earlier answer and the test fills in the same way
// (a task, an approval, a board… created first through the API). Each must answer 2xx/3xx,
// unless its comment documents the refusal: `# answers 409 CODE …`.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { startMusterChild, type MusterChild } from "../helpers/muster-child.ts";
import { removeHome } from "../helpers/start-test-host.ts";
import { extractExamples, placeholders, type DocExample } from "./doc-examples.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const TEMPLATE_ORG = join(ROOT, "core/internal/workspace/template/company/org_structure.yaml");
const crew = Object.keys((parse(readFileSync(TEMPLATE_ORG, "utf8")) as { org: { agents: Record<string, unknown> } }).org.agents);

interface Ctx {
  dir: string;
  home: string;
  gateway: FakeGateway;
  muster: MusterChild;
  /** The id of the council the last council example convened. */
  lastCouncil?: string;
}
const t = suite<Ctx>("README and docs examples");
const { examples, skipped } = extractExamples(ROOT);

t.before(async (ctx) => {
  // A scratch "checkout": the server's home is its ./.muster, as `npm start` makes it there.
  ctx.dir = mkdtempSync(join(tmpdir(), "muster-doc-examples-"));
  ctx.home = join(ctx.dir, ".muster");
  mkdirSync(ctx.home, { recursive: true });
  ctx.gateway = await FakeGateway.start({ token: "doc-examples", agents: crew.map((id) => ({ id, name: id, model: { primary: "fake/fake-model" } })) });
  ctx.muster = await startMusterChild({ home: ctx.home, workspace: join(ctx.home, "workspace"), gatewayUrl: ctx.gateway.url, gatewayToken: "doc-examples", timeoutMs: 60_000 });
});

t.after(async (ctx) => {
  await ctx.muster?.kill();
  await ctx.gateway?.stop();
  if (ctx.dir) removeHome(ctx.dir);
});

t("the examples are found, and the blocks left out are few and say why", () => {
  assert.ok(examples.length >= 40, `found ${examples.length} examples`);
  for (const block of skipped) assert.ok(block.reason.length > 10, `${block.where} says why it is not run`);
  assert.ok(skipped.length <= 3, `blocks left out: ${skipped.map((b) => b.where).join(", ")}`);
});

for (const example of examples) {
  t(`${example.where} answers as documented: ${example.text.slice(0, 90)}`, async (ctx) => {
    const { status, body } = example.kind === "http" ? await runHttp(ctx, example) : await runCurl(ctx, example);
    // An example that documents a refusal says so first in its comment: `# answers 409 CODE …`.
    const documented = /^answers (\d{3}) ([A-Z][A-Z0-9_]+)/.exec(example.comment);
    if (documented) {
      assert.is(status, Number(documented[1]), `${example.where} answered ${status}: ${body.slice(0, 600)}`);
      assert.is(JSON.parse(body).error?.code, documented[2]);
    } else assert.ok(status >= 200 && status < 400, `${example.where} answered ${status}: ${body.slice(0, 600)}`);
  });
}

async function runCurl(ctx: Ctx, example: DocExample): Promise<{ status: number; body: string }> {
  let command = example.text.replace(/(127\.0\.0\.1|localhost):3333/g, new URL(ctx.muster.url).host);
  for (const placeholder of placeholders(command)) command = command.split(placeholder).join(await fillIn(ctx, placeholder, command));
  const preamble = example.preamble.map((line) => line.replace(/http:\/\/127\.0\.0\.1:3333/g, ctx.muster.url));
  // A stream (curl -N) runs until the server ends it; the live stream never does.
  const bound = /\s-N\s/.test(command) ? " --max-time 10" : " --max-time 120";
  const script = [...preamble, `${command} -o "$EXAMPLE_BODY" -w '%{http_code}'${bound}`].join("\n");
  const bodyFile = join(ctx.dir, "answer");
  // Asynchronously: the fake gateway lives in this process and must keep answering meanwhile.
  const run = await bash(script, ctx.dir, { PATH: process.env.PATH, HOME: ctx.dir, EXAMPLE_BODY: bodyFile });
  const body = (() => {
    try {
      return readFileSync(bodyFile, "utf8");
    } catch {
      return "";
    }
  })();
  // curl exits 28 when --max-time ends a stream that was answering.
  if (run.status !== 0 && !(run.status === 28 && /\s-N\s/.test(command))) throw new Error(`bash exited ${run.status}: ${run.stderr}\n${script}`);
  const status = Number(run.stdout.trim().slice(-3));
  if (/\/api\/council\/session['"\s]/.test(`${command} `) && status < 400) ctx.lastCouncil = JSON.parse(body).session?.id ?? JSON.parse(body).id;
  return { status, body };
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });
}

async function runHttp(ctx: Ctx, example: DocExample): Promise<{ status: number; body: string }> {
  const token = readFileSync(join(ctx.home, "session-token"), "utf8").trim();
  const [head, ...rest] = example.text.replace("<$MUSTER_HOME/session-token>", token).split("\n\n");
  const [requestLine, ...headerLines] = head!.split("\n");
  const [method, path] = requestLine!.split(" ");
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(":")).trim(), line.slice(line.indexOf(":") + 1).trim()]));
  const res = await fetch(`${ctx.muster.url}${path}`, { method, headers, body: rest.join("\n\n") || undefined });
  return { status: res.status, body: await res.text() };
}

/** What a reader puts in place of a `<placeholder>`: an id from an answer of the same API. */
async function fillIn(ctx: Ctx, placeholder: string, command: string): Promise<string> {
  const post = async (path: string, body: unknown, pick: (answer: any /* any route's answer: each caller picks the id field it knows */) => unknown): Promise<string> => {
    const res = await ctx.muster.json(path, { method: "POST", body, session: true });
    const value = pick(res.body);
    if (res.status >= 400 || typeof value !== "string") throw new Error(`filling ${placeholder}: POST ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
    return value;
  };
  const board = () => post("/api/boards", { name: `Examples ${Math.random()}`, template: "kanban" }, (b) => b.board?.id);
  switch (placeholder) {
    case "<id>":
      // The council the example just before convened (the council allows 3 a minute).
      if (command.includes("/api/council/session/")) return ctx.lastCouncil ?? post("/api/council/session", { topic: "Fill in a council id", agents: ["aide", "forge"], rounds: 1 }, (b) => b.session?.id ?? b.id);
      return post("/api/tasks", { title: "An example's task" }, (b) => b.id);
    case "<task id>":
      return post("/api/tasks", { title: "An example's dispatched task", assignedTo: "builder" }, (b) => b.id);
    case "<approval id>":
      return post("/api/approvals", { title: "An example's approval", type: "example.check", requestedBy: "aide", context: "Filled in by the docs examples test" }, (b) => b.approval?.id ?? b.id);
    case "<job id>":
      return post("/api/crons", { name: `Example job ${Math.random()}`, agentId: "aide", cron: "0 9 * * 1-5", message: "Example" }, (b) => b.job?.id ?? b.id);
    case "<session id>":
      return post("/api/chat", { message: "Start a session", agentId: "aide" }, (b) => b.sessionId);
    case "<board>":
      return board();
    case "<card>":
      return post(`/api/boards/${await board()}/cards`, { title: "An example's card" }, (b) => b.card?.id);
    default:
      throw new Error(`no rule fills in ${placeholder}; add one to test/examples/docs-examples.test.ts`);
  }
}

t.run();
