// Summarises a V8 .cpuprofile (from `node --cpu-prof`) for the benchmark report: self time
// per function and per module, exclusive time per layer (innermost JS frame) and inclusive
// time of a few nested layers, restricted to a time window (the load run).
//   node --import tsx scripts/bench/profile-summary.ts <file.cpuprofile>
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  name: string;
  ms: number;
  /** Percent of the busy (non-idle) time in the window. */
  pct: number;
}

export interface ProfileSummary {
  windowMs: number;
  busyMs: number;
  functions: Share[];
  modules: Share[];
  /** Exclusive: sums to 100% of busy time. */
  layers: Share[];
  /** Inclusive of callees: overlap. */
  inclusive: Share[];
}

/** Muster's own source, not a dependency. */
const own = (f: CallFrame) => f.url.startsWith("file://") && !f.url.includes("/node_modules/");

/**
 * Layers for exclusive attribution: each busy sample goes to the layer of the innermost
 * JavaScript frame on its stack (native leaves such as JSON.stringify, better-sqlite3's
 * `.all()` or the socket write are charged to the JS function that called them).
 */
const LAYERS: { name: string; test: (f: CallFrame) => boolean }[] = [
  { name: "Koa respond() incl. JSON.stringify of the body", test: (f) => f.functionName === "respond" && f.url.includes("/node_modules/koa/") },
  { name: "work service (plugins/work: checks, the record, SQL it runs itself)", test: (f) => own(f) && f.url.includes("/plugins/work/") },
  { name: "better-sqlite3 JS (prepare, wrappers)", test: (f) => f.url.includes("/node_modules/better-sqlite3/") },
  { name: "MikroORM + its kysely query layer (incl. the SQLite statements they run: row objects, inserts)", test: (f) => /\/node_modules\/(@mikro-orm|kysely)\//.test(f.url) },
  { name: "zod validation", test: (f) => f.url.includes("/node_modules/zod/") },
  { name: "pino logging", test: (f) => /\/node_modules\/(pino|sonic-boom|thread-stream|@pinojs|fast-redact|pino-std-serializers)\//.test(f.url) },
  { name: "Koa, @koa/router and their helpers", test: (f) => /\/node_modules\/(koa|@koa|koa-compose|path-to-regexp|on-finished|statuses|type-is|mime-types|content-type|accepts|vary|fresh|destroy|encodeurl|cookies|http-errors|delegates|only|escape-html|content-disposition|negotiator|media-typer)\//.test(f.url) },
  { name: "Muster core (core/internal/http middleware, config, event bus)", test: (f) => own(f) && f.url.includes("/core/") },
  { name: "other plugins", test: (f) => own(f) && f.url.includes("/plugins/") },
  { name: "Node http/net/streams (parsing, headers, socket writes)", test: (f) => f.url.startsWith("node:") },
];

/** Inclusive layers: a sample counts when any frame of its stack is in the layer (these nest). */
const INCLUSIVE: { name: string; test: (f: CallFrame) => boolean }[] = [
  { name: "MikroORM and kysely (incl. the SQL they run)", test: (f) => /\/node_modules\/(@mikro-orm|kysely)\//.test(f.url) },
  { name: "zod validation", test: (f) => f.url.includes("/node_modules/zod/") },
  { name: "pino logging", test: (f) => /\/node_modules\/(pino|sonic-boom|thread-stream|@pinojs)\//.test(f.url) },
  { name: "Muster route wrapper and handler (plugin-router.ts down)", test: (f) => f.url.includes("/core/internal/http/plugin-router.ts") },
];

function moduleOf(frame: CallFrame, root: string): string {
  const { url, functionName } = frame;
  if (url === "") return functionName.startsWith("(") ? functionName : `(native) ${functionName}`;
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "/node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith("node:")) {
    const name = url.slice(5).replace(/^internal\//, "");
    return `node:${name.split("/")[0]!.replace(/^_/, "")}`;
  }
  const local = url.replace(/^file:\/\//, "").replace(root, "");
  const parts = local.split("/");
  return parts.slice(0, Math.min(3, parts.length - 1)).join("/") || local;
}

function round(shares: Map<string, number>, busyMs: number, limit: number): Share[] {
  return [...shares.entries()]
    .map(([name, us]) => ({ name, ms: us / 1000, pct: busyMs > 0 ? (100 * us) / 1000 / busyMs : 0 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, limit);
}

/**
 * `window` is [from, to] in the profile's clock (microseconds, CLOCK_MONOTONIC on Linux,
 * the same clock as `process.hrtime`); samples outside it (start-up, seeding, shutdown) are
 * ignored. When no sample falls inside, the whole profile is used.
 */
export function summariseProfile(path: string, root: string, window?: [number, number]): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const pick = (inWindow: (t: number) => boolean) => {
    const picked: { node: number; dt: number }[] = [];
    let t = profile.startTime;
    profile.samples.forEach((node, i) => {
      const dt = profile.timeDeltas[i] ?? 0;
      t += dt;
      if (inWindow(t)) picked.push({ node, dt });
    });
    return picked;
  };
  let samples = window ? pick((t) => t >= window[0] && t <= window[1]) : [];
  if (samples.length === 0) samples = pick(() => true);

  const fn = new Map<string, number>();
  const mod = new Map<string, number>();
  const layer = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let windowUs = 0;
  let busyUs = 0;
  const rootDir = root.endsWith("/") ? root : `${root}/`;
  for (const { node, dt } of samples) {
    windowUs += dt;
    const frame = byId.get(node)!.callFrame;
    if (frame.functionName === "(idle)") continue;
    busyUs += dt;
    const location = frame.url ? `${frame.url.replace(/^file:\/\//, "").replace(rootDir, "")}:${frame.lineNumber + 1}` : "native";
    const fnKey = `${frame.functionName || "(anonymous)"} ${location}`;
    fn.set(fnKey, (fn.get(fnKey) ?? 0) + dt);
    const m = moduleOf(frame, rootDir);
    mod.set(m, (mod.get(m) ?? 0) + dt);
    let owner: string | undefined;
    const hit = new Set<string>();
    for (let id: number | undefined = node; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      if (owner === undefined) {
        if (f.url === "" && f.functionName.startsWith("(")) owner = f.functionName === "(garbage collector)" ? "garbage collector" : "V8 runtime (program)";
        else if (f.url !== "") owner = LAYERS.find((l) => l.test(f))?.name ?? `other: ${moduleOf(f, rootDir)}`;
      }
      for (const l of INCLUSIVE) if (l.test(f)) hit.add(l.name);
    }
    owner ??= "native, no JS caller";
    layer.set(owner, (layer.get(owner) ?? 0) + dt);
    for (const name of hit) inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
  }
  const busyMs = busyUs / 1000;
  return {
    windowMs: windowUs / 1000,
    busyMs,
    functions: round(fn, busyMs, 15),
    modules: round(mod, busyMs, 15),
    layers: round(layer, busyMs, 20),
    inclusive: round(inclusive, busyMs, INCLUSIVE.length),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: profile-summary.ts <file.cpuprofile>");
    process.exit(2);
  }
  const summary = summariseProfile(file, process.cwd());
  console.log(`window ${summary.windowMs.toFixed(0)} ms, busy ${summary.busyMs.toFixed(0)} ms`);
  for (const [title, list] of [["layers (exclusive)", summary.layers], ["inclusive", summary.inclusive], ["modules (self)", summary.modules], ["functions (self)", summary.functions]] as const) {
    console.log(`\n${title}`);
    for (const s of list) console.log(`  ${s.pct.toFixed(1).padStart(5)}%  ${s.ms.toFixed(0).padStart(6)} ms  ${s.name}`);
  }
}
