// `npm run bench:gateway [-- --chats=N --restarts=N --outages=N --outage-seconds=S --record]`:
// the Speed section of issue 11, and issue 26's reconnect after a long outage.
// One real OpenClaw gateway (scripts/openclaw-peer/) with the project's fake model behind
// it, Muster as a child process pointed at it, and from here over 127.0.0.1:
//   - chats through Muster (SSE POST /api/chat) and through a bare WebSocket client
//     (chat.send + chat events), interleaved: time to the first delta and to the final reply;
//   - Muster's added latency, paired per run: a bare observer connection sees the gateway's
//     own `chat` events for Muster's runs, so (Muster's SSE frame) - (the gateway's event)
//     is the hop through Muster alone, free of the gateway's seconds-long run-to-run noise;
//   - restarts: gateway SIGTERM, start again on the same state, time from /readyz 200 to
//     Muster's /api/health `gateway.since` of `connected`.
// Results go to bench-results/benchmarks.md (git-ignored), or docs/benchmarks.md with --record.
import { randomUUID } from "node:crypto";
import { availableParallelism, loadavg, platform, release, totalmem } from "node:os";
import { join } from "node:path";
import { bareChat, connectBare, type BareClient } from "../openclaw-peer/bare-client.ts";
import { postChatStream } from "../openclaw-peer/chat-stream-client.ts";
import { startFakeModel, type FakeModel } from "../openclaw-peer/fake-model.ts";
import { startGatewayPeer, type GatewayPeer } from "../openclaw-peer/gateway-peer.ts";
import { ensureOpenClaw } from "../openclaw-peer/install.ts";
import { insideNamespace, rerunInLoopbackNamespace } from "../openclaw-peer/netns.ts";
import { benchmarksFile, wroteTo } from "./output.ts";
import { cleanupAll, freePort, startServer, stopServer, tempDir, type RunningServer } from "./processes.ts";
import { median } from "./report.ts";
import { readFileSync, writeFileSync } from "node:fs";

const ROOT = join(import.meta.dirname, "..", "..");
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const CHATS = arg("chats", 30);
const RESTARTS = arg("restarts", 5);
// Issue 26: after an outage longer than two minutes the backoff has reached its 30 s cap, so
// only the readiness watch (core/internal/gateway/readiness-watch.ts) can bring Muster back fast.
const OUTAGES = arg("outages", 0);
const OUTAGE_SECONDS = arg("outage-seconds", 150);
const WARMUP_CHATS = 2;
const HARD_LIMIT_MS = 30 * 60_000;
const TARGETS = { addedP50Ms: 5, addedP99Ms: 20, reconnectMedianMs: 1_000, afterOutageMs: 1_000 };
const log = (line: string) => console.error(`[bench:gateway] ${line}`);

// ---------------------------------------------------------------- figures

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}
const fmt = (v: number) => (Number.isFinite(v) ? (Math.abs(v) < 10 ? v.toFixed(2) : v.toFixed(0)) : "n/a");

interface ChatSample {
  firstDeltaMs: number;
  finalMs: number;
}
interface HopSample {
  firstDeltaMs: number;
  finalMs: number;
}

// ---------------------------------------------------------------- the run

async function startMuster(gateway: GatewayPeer): Promise<RunningServer> {
  const home = tempDir("muster-bench-gateway-");
  const port = await freePort();
  return startServer({
    name: "muster",
    args: ["core/entry.js", "start"],
    env: { PORT: String(port), MUSTER_HOME: home, WORKSPACE_DIR: join(home, "ws"), LOG_LEVEL: "warn", GATEWAY_URL: gateway.url, GATEWAY_TOKEN: gateway.token },
    port,
    cwd: ROOT,
    timeoutMs: 30_000,
  });
}

async function health(port: number): Promise<{ state: string; since: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2_000) });
  return ((await res.json()) as { gateway: { state: string; since: string } }).gateway;
}

async function waitForState(port: number, state: string, timeoutMs: number): Promise<{ state: string; since: string }> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const gateway = await health(port).catch(() => null);
    if (gateway?.state === state) return gateway;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`Muster's gateway state was not ${state} within ${timeoutMs} ms`);
}

/** When the gateway's own `chat` events for each session reached the observer connection. */
type GatewayTimes = Map<string, { delta?: number; final?: number }>;

function observe(observer: BareClient): GatewayTimes {
  const seen: GatewayTimes = new Map();
  observer.on("chat", (p) => {
    if (typeof p?.sessionKey !== "string") return;
    const times = seen.get(p.sessionKey) ?? {};
    if (p.state === "delta" && times.delta === undefined) times.delta = performance.now();
    if (p.state === "final") times.final = performance.now();
    seen.set(p.sessionKey, times);
  });
  return seen;
}

/** One chat through Muster's SSE, paired with the gateway's own events for the same session. */
async function musterChat(port: number, gatewayTimes: GatewayTimes): Promise<{ sample: ChatSample; hop: HopSample }> {
  const marker = `MARK-bench-${randomUUID().slice(0, 8)}`;
  const started = performance.now();
  const stream = await postChatStream(`http://127.0.0.1:${port}`, { message: `Bench ${marker}`, agentId: "main" });
  if (stream.status !== 200) throw new Error(`POST /api/chat answered ${stream.status}: ${stream.body}`);
  const start = await stream.next((f) => f.type === "start", 10_000, "start");
  const delta = await stream.next((f) => f.type === "delta", 120_000, "delta");
  const done = await stream.next((f) => f.type === "done" || f.type === "error", 120_000, "done");
  if (done.type === "error") throw new Error(`chat failed: ${JSON.stringify(done)}`);
  await stream.ended;
  // The observer's copy of the final event may land just after Muster's (the hop is then negative).
  const key = `agent:main:muster-${start.sessionId}`;
  const deadline = performance.now() + 5_000;
  while (gatewayTimes.get(key)?.final === undefined && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  const seen = gatewayTimes.get(key);
  if (seen?.delta === undefined || seen.final === undefined) throw new Error(`the observer did not see the gateway's delta and final events for ${key}`);
  gatewayTimes.delete(key);
  return {
    sample: { firstDeltaMs: delta.at - started, finalMs: done.at - started },
    hop: { firstDeltaMs: delta.at - seen.delta, finalMs: done.at - seen.final },
  };
}

async function directChat(client: BareClient): Promise<ChatSample> {
  const run = await bareChat(client, "main", `Bench MARK-direct-${randomUUID().slice(0, 8)}`, undefined, 120_000);
  if (run.state !== "final" || run.firstDeltaAt === undefined) throw new Error(`direct chat ended ${run.state}`);
  return { firstDeltaMs: run.firstDeltaAt - run.started, finalMs: run.endedAt - run.started };
}

async function restartOnce(gateway: GatewayPeer, port: number, outageMs = 0): Promise<number> {
  await gateway.stop();
  await waitForState(port, "down", 30_000);
  if (outageMs > 0) await new Promise((resolve) => setTimeout(resolve, outageMs));
  const { readyAt } = await gateway.start();
  const connected = await waitForState(port, "connected", 60_000);
  return Date.parse(connected.since) - (performance.timeOrigin + readyAt);
}

// ---------------------------------------------------------------- report

interface Results {
  startupMs: number;
  muster: ChatSample[];
  direct: ChatSample[];
  hops: HopSample[];
  reconnects: number[];
  /** Ready → connected after each outage of OUTAGE_SECONDS. */
  afterOutages: number[];
}

function render(r: Results): string {
  const row = (label: string, values: number[]) => `| ${label} | ${values.length} | ${fmt(percentile(values, 50))} | ${fmt(percentile(values, 99))} | ${fmt(Math.min(...values))} | ${fmt(Math.max(...values))} |`;
  const added = { p50: percentile(r.hops.map((h) => h.finalMs), 50), p99: percentile(r.hops.map((h) => h.finalMs), 99) };
  const addedDelta = { p50: percentile(r.hops.map((h) => h.firstDeltaMs), 50), p99: percentile(r.hops.map((h) => h.firstDeltaMs), 99) };
  const reconnect = r.reconnects.length ? median(r.reconnects) : NaN;
  const pass = (ok: boolean) => (ok ? "pass ✔" : "**FAIL ✘**");
  return [
    "## Gateway: chat through Muster against a bare WebSocket client, and reconnect after a restart",
    "",
    `Command: \`npm run bench:gateway -- --chats=${CHATS} --restarts=${RESTARTS}${OUTAGES ? ` --outages=${OUTAGES} --outage-seconds=${OUTAGE_SECONDS}` : ""}\`. Machine: ${platform()} ${release()}, ${availableParallelism()} CPUs, ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg().map((l) => l.toFixed(2)).join(" ")} at the end. Measured ${new Date().toISOString()}.`,
    "",
    "Method: one real OpenClaw gateway (the pinned version, `scripts/openclaw-peer/`) with the project's fake OpenAI-compatible model behind it (instant replies), " +
      "Muster (`node core/main.ts start`, a child process) connected to it, all on 127.0.0.1 inside a loopback-only network namespace when available. " +
      `After ${WARMUP_CHATS} warm-up chats each way, ${CHATS} chats through Muster (SSE \`POST /api/chat\`, new session each) and ${CHATS} through a bare WebSocket client (\`chat.send\` + \`chat\` events, new session key each), interleaved. ` +
      "Times are from sending the request to the first `delta` and to the final reply (`done` frame / `final` event). " +
      "**Muster's added latency** is paired per run: a bare observer connection receives the gateway's own `chat` events for Muster's runs, and the figure is the Muster SSE frame's arrival minus the gateway event's arrival, both in this process; " +
      "end-to-end times differ by seconds from run to run inside the gateway (workspace and context preparation), which would drown a few milliseconds in a difference of two distributions. " +
      "A negative hop means Muster's frame arrived before the observer's copy of the event: the gateway writes its broadcast to one connection after the other. " +
      `Reconnect: ${RESTARTS} restart(s), each a gateway SIGTERM, then a start on the same state dir; from its \`/readyz\` first answering 200 (polled every 25 ms) to the \`since\` of Muster's \`/api/health\` \`gateway.state: "connected"\`.` +
      (OUTAGES ? ` Then ${OUTAGES} outage(s) of ${OUTAGE_SECONDS} s each (long enough for the reconnect backoff to reach its 30 s cap), timed the same way.` : ""),
    "",
    `Gateway start-up (spawn to /readyz 200): ${fmt(r.startupMs)} ms.`,
    "",
    "| path | chats | p50 ms | p99 ms | min ms | max ms |",
    "|---|---:|---:|---:|---:|---:|",
    row("through Muster: first delta", r.muster.map((s) => s.firstDeltaMs)),
    row("bare WebSocket: first delta", r.direct.map((s) => s.firstDeltaMs)),
    row("through Muster: final reply", r.muster.map((s) => s.finalMs)),
    row("bare WebSocket: final reply", r.direct.map((s) => s.finalMs)),
    row("Muster's added latency: first delta (paired)", r.hops.map((h) => h.firstDeltaMs)),
    row("Muster's added latency: final reply (paired)", r.hops.map((h) => h.finalMs)),
    row("reconnect: /readyz 200 → connected", r.reconnects),
    ...(r.afterOutages.length ? [row(`reconnect after a ${OUTAGE_SECONDS} s outage: /readyz 200 → connected`, r.afterOutages)] : []),
    "",
    "| target (issue 11) | goal | measured | |",
    "|---|---|---|---|",
    `| Muster's added latency, p50 | ≤ ${TARGETS.addedP50Ms} ms | first delta ${fmt(addedDelta.p50)} ms, final ${fmt(added.p50)} ms | ${pass(Math.max(addedDelta.p50, added.p50) <= TARGETS.addedP50Ms)} |`,
    `| Muster's added latency, p99 | ≤ ${TARGETS.addedP99Ms} ms | first delta ${fmt(addedDelta.p99)} ms, final ${fmt(added.p99)} ms | ${pass(Math.max(addedDelta.p99, added.p99) <= TARGETS.addedP99Ms)} |`,
    `| ready → connected, median of ${r.reconnects.length} restarts | < ${TARGETS.reconnectMedianMs} ms | ${fmt(reconnect)} ms | ${pass(reconnect < TARGETS.reconnectMedianMs)} |`,
    ...(r.afterOutages.length
      ? [`| ready → connected after a ${OUTAGE_SECONDS} s outage, worst of ${r.afterOutages.length} (issue 26) | < ${TARGETS.afterOutageMs} ms | ${fmt(Math.max(...r.afterOutages))} ms | ${pass(Math.max(...r.afterOutages) < TARGETS.afterOutageMs)} |`]
      : []),
  ].join("\n");
}

function writeReport(section: string): string {
  const file = benchmarksFile();
  const start = "<!-- gateway:start -->";
  const end = "<!-- gateway:end -->";
  const text = readFileSync(file, "utf8");
  const block = `${start}\n${section}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  writeFileSync(file, i >= 0 && j > i ? `${text.slice(0, i)}${block}${text.slice(j + end.length)}` : `${text.trimEnd()}\n\n${block}\n`);
  return wroteTo(file, "the gateway section");
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const { entry } = await ensureOpenClaw(log);
  if (!insideNamespace()) {
    const rerun = rerunInLoopbackNamespace(log);
    if (rerun) process.exit(await rerun);
  }
  let model: FakeModel | undefined;
  let gateway: GatewayPeer | undefined;
  let muster: RunningServer | undefined;
  const clients: BareClient[] = [];
  const stopAll = async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    if (muster) await stopServer(muster.child);
    await gateway?.dispose();
    await model?.stop();
    cleanupAll();
  };
  const hardLimit = setTimeout(() => {
    log(`aborted after ${HARD_LIMIT_MS / 60_000} min`);
    void stopAll().finally(() => process.exit(1));
  }, HARD_LIMIT_MS);
  hardLimit.unref();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stopAll().finally(() => process.exit(130)));

  try {
    model = await startFakeModel();
    const spawned = performance.now();
    gateway = await startGatewayPeer({ entry, modelBaseUrl: model.baseUrl });
    const startupMs = gateway.readyAt - spawned;
    log(`gateway ready in ${(startupMs / 1000).toFixed(1)} s`);
    muster = await startMuster(gateway);
    await waitForState(muster.port, "connected", 30_000);
    const direct = await connectBare(gateway.url, gateway.token);
    const observer = await connectBare(gateway.url, gateway.token);
    clients.push(direct, observer);
    const gatewayTimes = observe(observer);

    const results: Results = { startupMs, muster: [], direct: [], hops: [], reconnects: [], afterOutages: [] };
    for (let i = 0; i < WARMUP_CHATS; i++) {
      await musterChat(muster.port, gatewayTimes);
      await directChat(direct);
    }
    for (let i = 0; i < CHATS; i++) {
      const through = await musterChat(muster.port, gatewayTimes);
      results.muster.push(through.sample);
      results.hops.push(through.hop);
      results.direct.push(await directChat(direct));
      log(`chat ${i + 1}/${CHATS}: Muster final ${fmt(through.sample.finalMs)} ms (hop ${fmt(through.hop.finalMs)} ms), direct ${fmt(results.direct.at(-1)!.finalMs)} ms`);
    }
    await Promise.all(clients.splice(0).map((c) => c.close()));
    for (let i = 0; i < RESTARTS; i++) {
      const lag = await restartOnce(gateway, muster.port);
      results.reconnects.push(lag);
      log(`restart ${i + 1}/${RESTARTS}: connected ${fmt(lag)} ms after /readyz 200`);
    }
    for (let i = 0; i < OUTAGES; i++) {
      const lag = await restartOnce(gateway, muster.port, OUTAGE_SECONDS * 1_000);
      results.afterOutages.push(lag);
      log(`outage ${i + 1}/${OUTAGES} of ${OUTAGE_SECONDS} s: connected ${fmt(lag)} ms after /readyz 200`);
    }
    const section = render(results);
    console.log(`\n${section}\n`);
    log(writeReport(section));
  } catch (error) {
    if (gateway) console.error(gateway.logTail());
    if (muster) console.error(`--- Muster's output ---\n${muster.output()}`);
    throw error;
  } finally {
    clearTimeout(hardLimit);
    await stopAll();
  }
}

await main();
