// The agent-health scenario of `npm run bench:api` (issue 12): GET /api/agents/health with 200
// agents in the organisation file and 2,000 gateway sessions (a fake gateway in this process),
// p99 under 25 ms, and the gateway not asked per request (sessions.list counted before and
// after the load).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeGateway } from "@muster/plugin/testing";
import { medianFigures, type LoadFigures, type LoadTarget } from "./load.ts";
import { freePort, removeTempDir, startServer, stopServer, tempDir, type RunningServer } from "./processes.ts";

export const AGENTS = 200;
export const SESSIONS = 2_000;
const TOKEN = "bench-agents-token-0123456789";

export const AGENT_HEALTH: LoadTarget = { label: `GET /api/agents/health (${AGENTS} agents, ${SESSIONS.toLocaleString("en-US")} sessions)`, method: "GET", path: "/api/agents/health" };

function orgFile(): string {
  const lines = ["org:", "  name: Bench", "  owner: Bench", "  agents:"];
  for (let i = 0; i < AGENTS; i++) lines.push(`    a${i}: {id: a${i}, tier: ${1 + (i % 3)}, role: worker, model: m, skills: [s${i % 7}, s${i % 11}]}`);
  return `${lines.join("\n")}\n`;
}

/** Runs the scenario; `measure` is the api bench's autocannon run (fails on any non-2xx). */
export async function benchAgentHealth(
  measure: (server: RunningServer, target: LoadTarget) => Promise<LoadFigures>,
  cwd: string,
  log: (message: string) => void,
): Promise<{ figures: LoadFigures; sessionListsDuringLoad: number }> {
  const now = Date.now();
  const gateway = await FakeGateway.start({
    token: TOKEN,
    agents: Array.from({ length: AGENTS }, (_, i) => ({ id: `a${i}` })),
    // Ten sessions per agent, spread over the last hour so that every state occurs.
    sessions: Array.from({ length: SESSIONS }, (_, i) => ({ key: `agent:a${i % AGENTS}:s${i}`, agentId: `a${i % AGENTS}`, updatedAt: now - ((i * 7_919) % 3_600_000), model: "m" })),
  });
  const home = tempDir("muster-bench-agents-");
  const workspace = join(home, "ws");
  mkdirSync(join(workspace, "company"), { recursive: true });
  writeFileSync(join(workspace, "company/org_structure.yaml"), orgFile());
  const port = await freePort();
  const server = await startServer({
    name: "muster-agents",
    args: ["core/entry.js", "start"],
    env: { PORT: String(port), MUSTER_HOME: home, WORKSPACE_DIR: workspace, LOG_LEVEL: "warn", GATEWAY_URL: gateway.url, GATEWAY_TOKEN: TOKEN },
    port,
    cwd,
    timeoutMs: 20_000,
  });
  try {
    log(`agents: waiting for the ${SESSIONS} sessions to reach the health snapshot`);
    for (const deadline = Date.now() + 20_000; ; ) {
      const body = (await (await fetch(`http://127.0.0.1:${port}/api/agents/health`)).json()) as { agents: { sessionCount: number }[] };
      if (body.agents.length >= AGENTS && body.agents.reduce((n, a) => n + a.sessionCount, 0) === SESSIONS) break;
      if (Date.now() > deadline) throw new Error(`agent health did not reach ${AGENTS} agents and ${SESSIONS} sessions`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const before = gateway.requests("sessions.list").length;
    const figures = await measure(server, AGENT_HEALTH);
    return { figures, sessionListsDuringLoad: gateway.requests("sessions.list").length - before };
  } finally {
    await stopServer(server.child);
    await gateway.stop();
    removeTempDir(home);
  }
}

/**
 * `npm run bench:api -- --agent-health-only [--runs N] [name=<checkout> ...]`: this scenario
 * alone, the checkouts named (default: this one) taking turns, `runs` rounds of `seconds`;
 * the table of each checkout's medians.
 */
export async function agentHealthOnly(options: {
  checkouts: readonly (readonly [string, string])[];
  runs: number;
  measure: (server: RunningServer, target: LoadTarget) => Promise<LoadFigures>;
  log: (message: string) => void;
}): Promise<string> {
  const runs = new Map<string, LoadFigures[]>(options.checkouts.map(([name]) => [name, []]));
  for (let round = 0; round < options.runs; round++) {
    for (const [name, cwd] of options.checkouts) {
      const { figures, sessionListsDuringLoad } = await benchAgentHealth(options.measure, cwd, options.log);
      if (sessionListsDuringLoad > 1) throw new Error(`${name}: ${sessionListsDuringLoad} sessions.list during the load (at most the periodic one)`);
      options.log(`${name}: p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms, ${Math.round(figures.cpuUsPerRequest ?? NaN)} µs of server CPU per answer`);
      runs.get(name)!.push(figures);
    }
  }
  const lines = [`| checkout | p50 ms | p99 ms (runs) | server CPU µs per answer |`, `|---|---:|---:|---:|`];
  for (const [name, figures] of runs) {
    const middle = medianFigures(figures);
    lines.push(`| ${name} | ${middle.p50Ms} | ${middle.p99Ms} (${figures.map((f) => f.p99Ms).join(", ")}) | ${Math.round(middle.cpuUsPerRequest ?? NaN)} |`);
  }
  return `${AGENT_HEALTH.label}, ${options.runs} runs per checkout, medians:\n\n${lines.join("\n")}`;
}
