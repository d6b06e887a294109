// The fan-out row of bench:workspace (issue 26): one public bus event (POST /api/activities) to
// N SSE clients, timed from here over 127.0.0.1. Two spans per event: from the POST being sent
// to the last client's receipt (the row bench:workspace always reported), and from the first
// client's receipt to the last one's (the "p99 from first receipt": the fan-out alone,
// without the POST's own handling).
//
// The clients share the machine's cores with the server, so what a client costs is part of
// what is measured. The default client is a raw TCP socket that sends the GET by hand and
// only looks for the event's marker in the bytes it receives (no HTTP parser, no SSE parser,
// no JSON.parse): the figure is then the server's fan-out, not 1,000 parsers in the bench.
// `sse` is the previous client (node:http + an SSE parser per client), kept to compare.
//
// Alone, against one or more checkouts spawned alternately (each with its node_modules):
//   npm run bench:workspace -- --fanout-only [--runs 2] [--client raw|sse] [--profile] before=/tmp/main after=.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { request as httpRequest, Agent, type IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { freePort, mainThreadCpuSplitMs, removeTempDir, stopServer } from "./processes.ts";
import { median } from "./report.ts";

export type FanoutClientKind = "raw" | "sse";

export interface FanoutFigures {
  clients: number;
  events: number;
  /** Events some client never received within 10 s. */
  missed: number;
  /** POST sent → the last client's receipt, per event (ms). */
  postToLast: number[];
  /** The first client's receipt → the last client's receipt, per event (ms). */
  firstToLast: number[];
  /** Main-thread CPU of the server per event, over the whole series (ms; /proc ticks of 10 ms). */
  serverCpuPerEventMs: number;
  /** The part of it spent in the kernel (socket writes). */
  serverSystemPerEventMs: number;
  /** CPU of this (client) process per event (ms). */
  clientCpuPerEventMs: number;
  /** `[from, to]` of the series in microseconds of CLOCK_MONOTONIC (a --cpu-prof profile's clock). */
  windowUs: [number, number];
}

/** An event's marker, as text and as the bytes a raw client looks for (made once per event, not per client). */
interface Marker {
  text: string;
  bytes: Buffer;
}

/** One connected stream client; `watch(marker, seen)` reports the time the marker first arrives. */
interface FanoutClient {
  watch(marker: Marker, seen: (at: number) => void): void;
  close(): void;
}

const CONNECT_TIMEOUT_MS = 10_000;
const EVENT_TIMEOUT_MS = 10_000;

/**
 * Where every raw client reads into: reads are handled one at a time on this thread, each
 * before the next, so one buffer serves all (no Buffer and no 'data' event per read).
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/**
 * A raw socket: the request by hand, then a byte scan for the marker (kept across two reads
 * by holding a copy of the previous read's tail). Resolves once the `connected` frame has arrived.
 */
function connectRaw(port: number): Promise<FanoutClient> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ port, host: "127.0.0.1", onread: { buffer: READ_BUFFER, callback: (length) => (onBytes(READ_BUFFER.subarray(0, length)), true) } });
    const connected = Buffer.from('"type":"connected"');
    let head: Buffer = Buffer.alloc(0);
    let isOpen = false;
    let marker: Buffer | null = null;
    let onSeen: ((at: number) => void) | null = null;
    let tail: Buffer = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(new Error("SSE connect timed out")), CONNECT_TIMEOUT_MS);
    socket.setNoDelay(true);
    socket.write(`GET /api/sse HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
    const onBytes = (chunk: Buffer) => {
      if (!isOpen) {
        head = Buffer.concat([head, chunk]);
        if (!head.subarray(0, 16).toString("latin1").startsWith("HTTP/1.1 200")) {
          if (head.length >= 16) socket.destroy(new Error(`SSE answered ${head.subarray(0, 40).toString("latin1").split("\r\n")[0]}`));
          return;
        }
        if (head.includes(connected)) {
          isOpen = true;
          clearTimeout(timer);
          resolve(client);
        }
        return;
      }
      if (!marker) return;
      const found = chunk.includes(marker) || (tail.length > 0 && Buffer.concat([tail, chunk.subarray(0, marker.length - 1)]).includes(marker));
      if (found) {
        const seen = onSeen!;
        marker = null;
        onSeen = null;
        seen(performance.now());
      } else {
        tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - (marker.length - 1))));
      }
    };
    socket.on("error", (error) => {
      clearTimeout(timer);
      if (!isOpen) reject(error);
    });
    const client: FanoutClient = {
      watch: (m, seen) => {
        marker = m.bytes;
        onSeen = seen;
        tail = Buffer.alloc(0);
      },
      close: () => socket.destroy(),
    };
  });
}

/** A stream client over node:http that parses every frame (`data:` JSON) and hands it to `onFrame`. */
export interface SseClient {
  onFrame(handler: ((frame: any) => void) | undefined): void;
  close(): void;
}

/** The body decoded as UTF-8 and split into frames; resolves once the `connected` frame has arrived. */
export function connectSse(port: number, agent: Agent): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: "/api/sse", agent, headers: { accept: "text/event-stream" } }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`SSE answered ${res.statusCode}`));
        return;
      }
      let buffer = "";
      let handler: ((frame: any) => void) | undefined;
      let connected = false;
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split("\n").find((l) => l.startsWith("data: "));
          if (!data) continue;
          const frame = JSON.parse(data.slice(6));
          if (!connected && frame.type === "connected") {
            connected = true;
            resolve(client);
          }
          handler?.(frame);
        }
      });
      res.on("error", () => undefined);
      const client: SseClient = { onFrame: (h) => void (handler = h), close: () => req.destroy() };
    });
    req.setTimeout(CONNECT_TIMEOUT_MS, () => req.destroy(new Error("SSE connect timed out")));
    req.on("error", reject);
    req.end();
  });
}

/** The previous fan-out client: a full SSE parser per client (`connectSse`), watching for the marker's event. */
async function connectParsing(port: number, agent: Agent): Promise<FanoutClient> {
  const client = await connectSse(port, agent);
  return {
    watch: (marker, seen) =>
      client.onFrame((frame) => {
        if (frame.type === "event" && frame.payload?.target === marker.text) {
          client.onFrame(undefined);
          seen(performance.now());
        }
      }),
    close: () => client.close(),
  };
}

/** The status of `method path` (a JSON body when given). */
function send(port: number, method: string, path: string, body?: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? "" : JSON.stringify(body);
    const headers = body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) };
    const req = httpRequest({ host: "127.0.0.1", port, path, method, agent: false, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(payload);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Connects `clients` stream clients (50 at a time), then sends `events` public events one by
 * one (100 ms apart) and times each to its last receipt. `onConnected` runs once all are in
 * (bench:workspace reads the server's RSS there).
 */
export async function measureFanout(port: number, serverPid: number, options: { clients: number; events: number; client?: FanoutClientKind; onConnected?: () => void }): Promise<FanoutFigures> {
  const kind = options.client ?? "raw";
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const clients: FanoutClient[] = [];
  try {
    for (let i = 0; i < options.clients; i += 50) {
      const batch = Array.from({ length: Math.min(50, options.clients - i) }, () => (kind === "raw" ? connectRaw(port) : connectParsing(port, agent)));
      clients.push(...(await Promise.all(batch)));
    }
    options.onConnected?.();
    const figures: FanoutFigures = { clients: clients.length, events: options.events, missed: 0, postToLast: [], firstToLast: [], serverCpuPerEventMs: NaN, serverSystemPerEventMs: NaN, clientCpuPerEventMs: NaN, windowUs: [0, 0] };
    const serverCpu0 = mainThreadCpuSplitMs(serverPid);
    const clientCpu0 = process.cpuUsage();
    figures.windowUs[0] = monotonicUs();
    for (let e = 0; e < options.events; e++) {
      const text = `fanout-${e}-${Date.now()}`;
      const marker = { text, bytes: Buffer.from(text) };
      let first = Infinity;
      let last = 0;
      let remaining = clients.length;
      const allSeen = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), EVENT_TIMEOUT_MS);
        for (const client of clients) {
          client.watch(marker, (at) => {
            if (at < first) first = at;
            last = at;
            if (--remaining === 0) {
              clearTimeout(timer);
              resolve(true);
            }
          });
        }
      });
      const t0 = performance.now();
      // A public bus event: the activity log publishes activities.activity.created.
      const status = await send(port, "POST", "/api/activities", { agentId: "bench", action: "fanout", target: text });
      if (status !== 201) throw new Error(`POST /api/activities answered ${status}`);
      if (await allSeen) {
        figures.postToLast.push(last - t0);
        figures.firstToLast.push(last - first);
      } else figures.missed += 1;
      await sleep(100);
    }
    figures.windowUs[1] = monotonicUs();
    const serverCpu = mainThreadCpuSplitMs(serverPid);
    figures.serverCpuPerEventMs = (serverCpu.user + serverCpu.system - serverCpu0.user - serverCpu0.system) / options.events;
    figures.serverSystemPerEventMs = (serverCpu.system - serverCpu0.system) / options.events;
    const clientCpu = process.cpuUsage(clientCpu0);
    figures.clientCpuPerEventMs = (clientCpu.user + clientCpu.system) / 1000 / options.events;
    return figures;
  } finally {
    for (const client of clients) client.close();
    agent.destroy();
  }
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const fmt = (v: number) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ms` : "n/a");

/** `p50 / p99` of both spans of one run, for a log line. */
export function describeRun(f: FanoutFigures): string {
  return (
    `first → last p50 ${fmt(percentile(f.firstToLast, 50))} p99 ${fmt(percentile(f.firstToLast, 99))}; ` +
    `POST → last p50 ${fmt(percentile(f.postToLast, 50))} p99 ${fmt(percentile(f.postToLast, 99))}; ` +
    `server main-thread CPU ${fmt(f.serverCpuPerEventMs)}/event (kernel ${fmt(f.serverSystemPerEventMs)}), bench ${fmt(f.clientCpuPerEventMs)}/event` +
    (f.missed ? `; ${f.missed} events missed` : "")
  );
}

// ---------------------------------------------------------------- --fanout-only

interface FanoutOnlyOptions {
  checkouts: (readonly [string, string])[];
  runs: number;
  clients: number;
  events: number;
  client: FanoutClientKind;
  /** Directory for the servers' --cpu-prof files (one per run), or undefined. */
  profileDir?: string;
}

async function withServer<T>(checkout: string, home: string, workspace: string, profileDir: string | undefined, fn: (child: ChildProcess, port: number) => Promise<T>): Promise<T> {
  const port = await freePort();
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  // The sources, not the start-up bundle: the same code on the hot path, readable profiles,
  // and no background bundle rebuild during the measure.
  const child = spawn(join(checkout, "node_modules/.bin/node"), [...profile, "core/entry.js", "start"], {
    cwd: checkout,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", MUSTER_HOME: home, WORKSPACE_DIR: workspace, LOG_LEVEL: "warn", NODE_ENV: "production", GATEWAY_URL: "off", MUSTER_START_BUNDLE: "off" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => void (stderr = (stderr + c.toString()).slice(-4000)));
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server in ${checkout} exited (${child.exitCode}): ${stderr}`);
      if (Date.now() > deadline) throw new Error(`server in ${checkout} did not start: ${stderr}`);
      if ((await send(port, "GET", "/api/health").catch(() => 0)) === 200) break;
      await sleep(20);
    }
    return await fn(child, port);
  } finally {
    await stopServer(child, 15_000);
  }
}

/** Runs the fan-out alone: each checkout's server in turn (order flipped each run), a fresh home each time. */
export async function fanoutOnly(options: FanoutOnlyOptions, log: (line: string) => void = console.log): Promise<string> {
  const runs = new Map<string, FanoutFigures[]>(options.checkouts.map(([name]) => [name, []]));
  const loadBefore = loadavg().map((v) => v.toFixed(2)).join(" ");
  for (let run = 0; run < options.runs; run++) {
    for (const [name, dir] of run % 2 ? [...options.checkouts].reverse() : options.checkouts) {
      const tmp = mkdtempSync(join(tmpdir(), "muster-bench-fanout-"));
      try {
        const home = join(tmp, "home");
        const workspace = join(tmp, "workspace");
        mkdirSync(home, { recursive: true });
        mkdirSync(workspace, { recursive: true });
        writeFileSync(join(workspace, "README.md"), "# Fan-out bench\n");
        // The stream's default client cap (1,100) holds the 1,000 clients; no ping in the series.
        writeFileSync(join(home, "muster.config.json"), JSON.stringify({ config: { stream: { pingIntervalMs: 600_000 } } }));
        const profileDir = options.profileDir ? join(options.profileDir, `${name}-${run}`) : undefined;
        const figures = await withServer(dir, home, workspace, profileDir, (child, port) => measureFanout(port, child.pid!, options));
        runs.get(name)!.push(figures);
        log(`${name} run ${run + 1}: ${describeRun(figures)}`);
        if (profileDir) log(`  profile: ${join(profileDir, readdirSync(profileDir)[0] ?? "?")} window ${figures.windowUs.join("-")} µs`);
      } finally {
        removeTempDir(tmp);
      }
    }
  }
  const loadAfter = loadavg().map((v) => v.toFixed(2)).join(" ");
  const rows = [
    `| checkout | first receipt → last client, p50 / p99 (median of runs) | POST sent → last client, p50 / p99 | server main-thread CPU per event (of it in the kernel) | bench CPU per event | runs × events |`,
    "|---|---:|---:|---:|---:|---:|",
  ];
  for (const [name, list] of runs) {
    const of = (pick: (f: FanoutFigures) => number) => fmt(median(list.map(pick).filter(Number.isFinite)));
    rows.push(
      `| ${name} | ${of((f) => percentile(f.firstToLast, 50))} / ${of((f) => percentile(f.firstToLast, 99))} | ${of((f) => percentile(f.postToLast, 50))} / ${of((f) => percentile(f.postToLast, 99))} | ${of((f) => f.serverCpuPerEventMs)} (${of((f) => f.serverSystemPerEventMs)}) | ${of((f) => f.clientCpuPerEventMs)} | ${list.length} × ${options.events} |`,
    );
  }
  return `${rows.join("\n")}\n\n${options.clients} clients (${options.client} client). Load average (1, 5, 15 min) ${loadBefore} at the start, ${loadAfter} at the end.`;
}
