// What Muster's own code costs per request (issue 26), without the kernel and without the
// machine's drift: each checkout given starts a host in this one process (its test kit, its
// sources), and the server's request listener is called with Node's own IncomingMessage and
// ServerResponse over an in-memory socket, in batches alternating between the checkouts.
// Over real sockets a 3 s run of the same server moves by ±20-40% on this VM (its speed
// changes from minute to minute), and the kernel's part (the socket's read and write) is a
// third of a small answer's CPU; here a checkout against itself reads 1.00 ± 0.01, so a
// change of a few percent of the JavaScript per request shows. `floor` is the baseline's work (bench:api's bare server) in
// this process: what no framework can go below.
//   npm run bench:listener -- \
//     [--batches 30] [--targets health,list] before=/tmp/before after=.
import http, { IncomingMessage, ServerResponse, type RequestListener } from "node:http";
import { syncBuiltinESMExports } from "node:module";
import { resolve } from "node:path";
import { randomUUID } from "node:crypto";
import { Duplex } from "node:stream";
import Database from "better-sqlite3";
import { baselineListener, prepareBaselineDatabase } from "./baseline-listener.ts";
import { median } from "./report.ts";
import { machine } from "./machine.ts";

const TARGETS: Record<string, string> = { health: "/api/health", list: "/api/tasks" };
const PER_BATCH = 1_000;
const WARM_UP = 10_000;

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? fallback : args.splice(at, 2)[1]!;
};
const batches = Number(option("batches", "30"));
const targets = option("targets", "health,list").split(",");
const named = args.map((arg) => ({ label: arg.slice(0, arg.indexOf("=")), dir: resolve(arg.slice(arg.indexOf("=") + 1)) }));
if (named.length === 0 || named.some((n) => !n.label) || targets.some((t) => !TARGETS[t]) || !(batches > 0)) {
  console.error("usage: listener-cost.ts [--batches N] [--targets health,list] label=checkout ...");
  process.exit(2);
}

interface Side {
  label: string;
  listener: RequestListener;
  host: string;
  stop: () => Promise<void>;
}

/** Each host's server is created through node:http's createServer: its listener is kept as it passes. */
let captured: RequestListener | undefined;
const createServer = http.createServer;
(http as { createServer: unknown }).createServer = (options: http.ServerOptions, listener: RequestListener) => {
  captured = listener;
  return createServer(options, listener);
};
syncBuiltinESMExports();

async function startSide(label: string, dir: string): Promise<Side> {
  const { startTestHost, removeHome } = (await import(`${dir}/test/helpers/start-test-host.ts`)) as typeof import("../../test/helpers/start-test-host.ts");
  captured = undefined;
  const testHost = await startTestHost({});
  if (!captured) throw new Error(`${label}: no server was created`);
  for (let i = 0; i < 100; i++) {
    const res = await testHost.request("/api/tasks", { method: "POST", body: { title: `Seeded task ${i + 1}`, description: "A task stored before the benchmark", priority: "high", tags: "bench,seed" } });
    if (res.status !== 201) throw new Error(`${label}: seeding answered ${res.status}`);
  }
  return { label, listener: captured, host: new URL(testHost.url).host, stop: async () => { await testHost.stop(); removeHome(testHost.home); } };
}

/**
 * The baseline's own listener (baseline-listener.ts, what bench:api's bare server runs) in
 * this process, over an in-memory database holding 100 tasks like the hosts'.
 */
function floorSide(): Side {
  const db = new Database(":memory:");
  prepareBaselineDatabase(db);
  const insert = db.prepare("INSERT INTO work_tasks (id, title, description, status, priority, tags, createdAt, updatedAt) VALUES (?, ?, ?, 'backlog', 'high', ?, ?, ?)");
  for (let i = 0; i < 100; i++) {
    const now = new Date(Date.now() + i).toISOString();
    insert.run(randomUUID(), `Seeded task ${i + 1}`, "A task stored before the benchmark", "bench,seed", now, now);
  }
  return { label: "floor", host: "127.0.0.1:1", stop: async () => void db.close(), listener: baselineListener(db) };
}

/** A socket that takes every write at once: the answer is serialised as for a real one, and goes nowhere. */
class MemorySocket extends Duplex {
  override _read(): void {}
  override _write(_chunk: unknown, _encoding: string, done: () => void): void {
    done();
  }
  override _writev(_chunks: unknown, done: () => void): void {
    done();
  }
}

function request(side: Side, path: string): Promise<void> {
  const socket = new MemorySocket();
  const req = new IncomingMessage(socket as never);
  req.method = "GET";
  req.url = path;
  req.httpVersion = "1.1";
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.headers = { host: side.host, "user-agent": "listener-cost", accept: "*/*" };
  req.rawHeaders = ["Host", side.host, "User-Agent", "listener-cost", "Accept", "*/*"];
  req.complete = true;
  req.push(null);
  const res = new ServerResponse(req);
  res.shouldKeepAlive = true;
  res.assignSocket(socket as never);
  return new Promise((done, fail) => {
    res.once("finish", () => {
      res.detachSocket(socket as never);
      if (res.statusCode !== 200) fail(new Error(`${side.label} ${path}: ${res.statusCode}`));
      else done();
    });
    side.listener(req, res);
  });
}

async function batch(side: Side, path: string, count: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) await request(side, path);
  return ((performance.now() - started) * 1000) / count;
}

const sides: Side[] = [];
try {
  for (const { label, dir } of named) sides.push(await startSide(label, dir));
  sides.push(floorSide());
  console.log(`${machine()}; ${batches} batches of ${PER_BATCH} requests per checkout and target, alternating\n`);
  for (const target of targets) {
    const path = TARGETS[target]!;
    for (const side of sides) await batch(side, path, WARM_UP);
    const times = new Map<Side, number[]>(sides.map((s) => [s, []]));
    const ratios = new Map<Side, number[]>(sides.map((s) => [s, []]));
    for (let b = 0; b < batches; b++) {
      for (const side of b % 2 ? [...sides].reverse() : sides) times.get(side)!.push(await batch(side, path, PER_BATCH));
      // Against the first checkout's batch of the same round: the drift between rounds cancels.
      for (const side of sides) ratios.get(side)!.push(times.get(side)!.at(-1)! / times.get(sides[0]!)!.at(-1)!);
    }
    for (const side of sides) {
      const ratio = side === sides[0] ? "" : `, ${median(ratios.get(side)!).toFixed(3)}x of ${sides[0]!.label} (median of per-round ratios)`;
      console.log(`${target.padEnd(7)} ${side.label.padEnd(10)} ${median(times.get(side)!).toFixed(2).padStart(7)} µs per request${ratio}`);
    }
  }
} finally {
  for (const side of sides) await side.stop();
}
process.exit(0);
