// The "where the remaining time goes" text of the bench:api report, written from this
// run's figures and profiles so that it stays true when the code changes.
import type { ColdStart } from "./report.ts";
import { median, type BenchRow } from "./report.ts";
import type { ProfileSummary } from "./profile-summary.ts";

export interface ProfiledRun {
  label: string;
  summary: ProfileSummary;
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");

/** Percent of busy time of the exclusive layer whose name starts with `prefix`. */
function layer(summary: ProfileSummary, prefix: string): string {
  const share = summary.layers.find((l) => l.name.startsWith(prefix));
  return `${(share?.pct ?? 0).toFixed(0)}%`;
}

/** Percent of busy time of every exclusive layer whose name starts with one of `prefixes`. */
function layers(summary: ProfileSummary, ...prefixes: string[]): string {
  const pct = summary.layers.filter((l) => prefixes.some((p) => l.name.startsWith(p))).reduce((sum, l) => sum + l.pct, 0);
  return `${pct.toFixed(0)}%`;
}

function fn(summary: ProfileSummary, name: string): number {
  return summary.functions.filter((f) => f.name.startsWith(`${name} `)).reduce((sum, f) => sum + f.pct, 0);
}

function cpu(row: BenchRow | undefined): { m: number; b: number; text: string } | null {
  if (!row?.muster.cpuUsPerRequest || !row.baseline.cpuUsPerRequest) return null;
  const m = row.muster.cpuUsPerRequest;
  const b = row.baseline.cpuUsPerRequest;
  const kernel =
    row.muster.systemUsPerRequest !== null && row.baseline.systemUsPerRequest !== null
      ? ` (of which ${int(row.muster.systemUsPerRequest)} and ${int(row.baseline.systemUsPerRequest)} µs in the kernel, system time)`
      : "";
  return { m, b, text: ` Per request: ${int(m)} µs of server CPU against the baseline's ${int(b)} µs${kernel}.` };
}

export function analysis(rows: BenchRow[], profiles: ProfiledRun[], cold: ColdStart[], connections: number): string[] {
  const find = (prefix: string) => profiles.find((p) => p.label.startsWith(prefix))?.summary;
  const row = (prefix: string) => rows.find((r) => r.label.startsWith(prefix));
  const out: string[] = [
    "- **How to read the shares below.** They are samples of V8's profiler (`--cpu-prof`) over one round. Under this load Linux delivers its " +
      "SIGPROF mostly at a syscall's exit, so the samples pile onto the sockets' reads and writes: \"Node's HTTP and socket code\" is over-counted " +
      "and the JavaScript under-counted. The per-request CPU from /proc, split into user and system time, has no such bias; `npm run bench:listener` " +
      "measures Muster's JavaScript alone, without the kernel (docs/benchmarks.md, \"what Muster's JavaScript costs per request\").",
  ];
  const list = find("GET /api/tasks");
  const listCpu = cpu(row("GET /api/tasks"));
  if (list) {
    out.push(
      `- **GET /api/tasks.** The query: the work store's statement for the unfiltered list, prepared once on the connection (raw rows, no ` +
        `query builder), building 100 row objects, which the baseline does as well, ${layers(list, "work service", "MikroORM", "better-sqlite3")} ` +
        `(of which MikroORM and kysely ${layer(list, "MikroORM")}), ` +
        `JSON.stringify of the rows inside Koa's respond() ${layer(list, "Koa respond")}, Node's HTTP and socket code ${layer(list, "Node http")} ` +
        "(mostly the socket write; on a loaded machine that includes being preempted while the kernel hands the bytes to autocannon). " +
        `The framework on top: Koa and @koa/router ${layer(list, "Koa, @koa")}, Muster's middleware ${layer(list, "Muster core")}, zod ${layer(list, "zod")}, ` +
        `pino ${layer(list, "pino")} (LOG_LEVEL=warn makes the per-request access-log call a no-op), garbage collection ${layer(list, "garbage")}.` +
        (listCpu?.text ?? ""),
    );
  }
  const create = find("POST /api/tasks");
  const createCpu = cpu(row("POST /api/tasks"));
  if (create) {
    out.push(
      `- **POST /api/tasks.** Node's HTTP and socket code ${layer(create, "Node http")}, the work service (validation of references, the record) ${layer(create, "work service")}, ` +
        `Koa and @koa/router ${layer(create, "Koa, @koa")}, Muster's middleware and body reader ${layer(create, "Muster core")}, zod body validation ${layer(create, "zod")}, ` +
        `other plugins (the SSE replay ring encoding the public \`work.task.created\` event) ${layer(create, "other plugins")}, MikroORM ${layer(create, "MikroORM")}, garbage collection ${layer(create, "garbage")}. ` +
        "Creates are one INSERT prepared once per kind on the connection (no unit of work, no query builder: its insert put the values into the " +
        "SQL text, so every create prepared a new statement); through `em.create()` + `flush()` the unit of work took about half of the CPU." +
        (createCpu?.text ?? ""),
    );
  }
  const health = find("GET /api/health");
  const healthCpu = cpu(row("GET /api/health"));
  if (health && healthCpu) {
    const prepare = fn(health, "prepare") + fn(health, "rowFactory");
    out.push(
      `- **Fixed cost per request** (GET /api/health does almost nothing, and is answered without a Koa context when the request needs none).${healthCpu.text} ` +
        `Koa and @koa/router ${layer(health, "Koa, @koa")}, ` +
        `Muster's envelope ${layer(health, "Muster core")} (request id, five security headers, the Host check, the count), ` +
        `Node's HTTP and socket code ${layer(health, "Node http")} (the same one write per response as the baseline, with more headers). ` +
        (prepare >= 2 ? `Statements prepared per request (better-sqlite3's prepare and row factory) take ${prepare.toFixed(0)}% of this profile.` : "Nothing is prepared per request any more (the database probe's statement is prepared once)."),
    );
  }
  const p99 = rows.map((r) => `${r.label} ${r.baseline.p99Ms} ms`).join(", ");
  out.push(
    `- **p99 latency.** With ${connections} connections always busy, the mean latency is ${connections} / (req/s) (Little's law): p99 under 50 ms needs well over 1,000 req/s and a tight tail. ` +
      `The tail here comes from the machine as much as from the server: in this run the bare baseline's own p99 was ${p99}.`,
  );
  if (cold.length > 0) {
    const wall = median(cold.map((c) => c.wallMs));
    const cpuMs = cold.every((c) => c.cpuMs !== null) ? median(cold.map((c) => c.cpuMs!)) : null;
    const host = cold.every((c) => c.hostMs !== null) ? median(cold.map((c) => c.hostMs!)) : null;
    out.push(
      `- **Cold start.** Median ${int(wall)} ms from spawn to the first 200` +
        (cpuMs !== null ? `, having used ${int(cpuMs)} ms of CPU (all threads)` : "") +
        (host !== null ? `; of that, ${int(host)} ms after \`createHost()\` (configuration, MikroORM init, migrations of a fresh database, workspace scaffold, plugin start, listen) and the rest before it: Node's boot and loading the module graph (about 1,000 modules, MikroORM with kysely more than half of them).` : ".") +
        " `npm start` runs core/entry.js, which runs the start-up bundle (`node_modules/.cache/muster-start/`, built by `npm install`, used while it matches the sources) with Node's on-disk compile cache, so the module graph is a few large files rather than about 1,400. " +
        "What the phases above show before the first answer: evaluating the bundle (zod schemas built at module load, MikroORM and kysely, koa's CommonJS packages), MikroORM's metadata discovery and the native better-sqlite3 open, the organisation file's first parse for the owner, the routes' mounting; the plugins' onStart runs after the server listens (the start gate).",
    );
  }
  return out;
}
