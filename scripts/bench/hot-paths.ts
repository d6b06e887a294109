// Same-run comparison of server CPU per request on the hot paths (issue 26): one Muster per
// checkout given (say, a `git archive` of the commit before a change, and the work tree), 100
// tasks seeded in each, then each endpoint loaded on each server in turn, alternating which
// goes first, and the medians printed. On a shared, loaded machine req/s moves with the
// neighbours; CPU per request (from /proc) moves far less, and alternating spreads the rest.
//   nice -n 10 node --conditions=source --import tsx scripts/bench/hot-paths.ts \
//     [--rounds 10] [--seconds 3] [--targets health,list,create] before=/tmp/before after=.
// A label starting with "baseline" runs scripts/bench/baseline-server.ts from that checkout.
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { runLoad, type LoadTarget } from "./load.ts";
import { cleanupAll, freePort, startServer, stopServer, tempDir, type RunningServer } from "./processes.ts";
import { median } from "./report.ts";

const TARGETS: Record<string, LoadTarget> = {
  health: { label: "GET /api/health", method: "GET", path: "/api/health" },
  list: { label: "GET /api/tasks (100 tasks)", method: "GET", path: "/api/tasks" },
  create: { label: "POST /api/tasks", method: "POST", path: "/api/tasks", body: JSON.stringify({ title: "bench" }) },
};

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? fallback : args.splice(at, 2)[1]!;
};
const rounds = Number(option("rounds", "10"));
const seconds = Number(option("seconds", "3"));
const targets = option("targets", "health,list,create").split(",");
const sides = args.map((arg) => {
  const [label, dir] = arg.split("=");
  return { label: label!, dir: resolve(dir ?? ".") };
});
if (sides.length === 0 || targets.some((t) => !TARGETS[t])) {
  console.error("usage: hot-paths.ts [--rounds N] [--seconds S] [--targets health,list,create] label=checkout ...");
  process.exit(2);
}

async function start(label: string, dir: string): Promise<RunningServer> {
  const home = tempDir("muster-hot-");
  const port = await freePort();
  const baseline = label.startsWith("baseline");
  const server = await startServer({
    name: label,
    args: baseline ? ["--conditions=source", "--import", "tsx", "scripts/bench/baseline-server.ts"] : ["core/entry.js", "start"],
    // The sources, not the start-up bundle: a change must be measured in the code it made.
    env: { PORT: String(port), MUSTER_HOME: home, WORKSPACE_DIR: join(home, "ws"), GATEWAY_URL: "off", LOG_LEVEL: "warn", MUSTER_START_BUNDLE: "off", BASELINE_DB: join(home, "baseline.db") },
    port,
    cwd: dir,
    timeoutMs: 30_000,
  });
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/api/tasks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: `Seeded task ${i + 1}`, description: "A task stored before the benchmark", priority: "high", tags: "bench,seed" }),
    });
    if (res.status !== 201) throw new Error(`${label}: seeding answered ${res.status}`);
  }
  return server;
}

const servers: RunningServer[] = [];
try {
  for (const side of sides) servers.push(await start(side.label, side.dir));
  console.log(`load average at the start: ${loadavg().map((l) => l.toFixed(1)).join(" ")} (${sides.length} servers, ${rounds} × ${seconds} s each)`);
  const cpu = new Map<string, number[]>();
  // Creates last: they grow the table the list reads.
  for (const target of targets) {
    for (let round = 0; round < rounds; round++) {
      for (const server of round % 2 ? [...servers].reverse() : servers) {
        const figures = await runLoad(server.port, TARGETS[target]!, 50, seconds, server.child.pid);
        if (figures.non2xx || figures.errors || figures.timeouts) throw new Error(`${server.name} ${target}: ${figures.non2xx} non-2xx, ${figures.errors} errors, ${figures.timeouts} timeouts`);
        const key = `${target} ${server.name}`;
        cpu.set(key, [...(cpu.get(key) ?? []), figures.cpuUsPerRequest ?? NaN]);
        console.log(`${target.padEnd(7)} ${server.name.padEnd(10)} ${(figures.cpuUsPerRequest ?? NaN).toFixed(0).padStart(5)} µs CPU/request  ${figures.rpsMean.toFixed(0).padStart(6)} req/s  p99 ${figures.p99Ms} ms  (load ${loadavg()[0]!.toFixed(1)})`);
      }
    }
  }
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  for (const target of targets) console.log(`median ${target}: ${servers.map((s) => `${s.name} ${median(cpu.get(`${target} ${s.name}`)!).toFixed(0)} µs`).join(", ")}`);
} finally {
  await Promise.all(servers.map((s) => stopServer(s.child)));
  cleanupAll();
}
