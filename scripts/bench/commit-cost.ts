// What one SQLite commit costs the request that makes it (issue 26, POST /api/tasks): the
// work plugin's own table and indexes with Muster's pragmas (WAL, synchronous=NORMAL) on a
// file, as `prepareBaselineDatabase` builds them for bench:api's baseline. Two questions:
//  - how much of an insert is the commit: the same inserts made one per transaction (as every
//    request makes them today) and grouped N to a transaction (what a group commit would do);
//  - what the WAL checkpoint adds: SQLite runs it inside the commit that takes the WAL past
//    `wal_autocheckpoint` pages (1000 by default, every ~110 creates here), so one request in
//    ~110 pays for copying the WAL back and two fsyncs. Measured as the slowest single inserts
//    with the checkpoint on and off (off only here: the WAL then grows without bound).
// The variants alternate within each round (the order flipping each round); figures are
// medians over the rounds.
//   npm run bench:commit -- [--inserts 20000] [--rounds 5]
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { prepareBaselineDatabase } from "./baseline-listener.ts";
import { commit, machine } from "./machine.ts";
import { tempDir, removeTempDir } from "./processes.ts";
import { median } from "./report.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? fallback : Number(args.splice(at, 2)[1]);
};
const INSERTS = option("inserts", 20_000);
const ROUNDS = option("rounds", 5);
if (args.length > 0 || ![INSERTS, ROUNDS].every((value) => Number.isInteger(value) && value > 0)) {
  console.error("usage: commit-cost.ts [--inserts N] [--rounds N] (whole numbers above 0)");
  process.exit(2);
}
const GROUP_SIZES = [1, 2, 5, 10, 25];

interface Variant {
  label: string;
  perTransaction: number;
  autocheckpoint: number;
}
const variants: Variant[] = [
  ...GROUP_SIZES.map((size) => ({ label: `${size} per transaction`, perTransaction: size, autocheckpoint: 1000 })),
  { label: "1 per transaction, no checkpoint", perTransaction: 1, autocheckpoint: 0 },
];

interface Figures {
  wallUs: number;
  cpuUs: number;
  /** Slowest 1% and the slowest of the transactions, in ms (the request that commits waits for its whole transaction). */
  p99Ms: number;
  maxMs: number;
}

function run(dir: string, variant: Variant): Figures {
  const path = join(dir, "commit.db");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
  const db = new Database(path);
  prepareBaselineDatabase(db);
  db.pragma(`wal_autocheckpoint = ${variant.autocheckpoint}`);
  const insert = db.prepare("INSERT INTO work_tasks (id, title, status, priority, createdAt, updatedAt) VALUES (?, 'bench', 'backlog', 'medium', ?, ?)");
  const one = () => {
    const now = new Date().toISOString();
    insert.run(randomUUID(), now, now);
  };
  const group = db.transaction((count: number) => {
    for (let i = 0; i < count; i++) one();
  });
  const transactions = Math.ceil(INSERTS / variant.perTransaction);
  const times = new Float64Array(transactions);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < transactions; i++) {
    const before = performance.now();
    if (variant.perTransaction === 1) one();
    else group(variant.perTransaction);
    times[i] = performance.now() - before;
  }
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  db.close();
  times.sort();
  const inserts = transactions * variant.perTransaction;
  return {
    wallUs: (wallMs * 1000) / inserts,
    cpuUs: (used.user + used.system) / inserts,
    p99Ms: times[Math.min(transactions - 1, Math.floor(transactions * 0.99))]!,
    maxMs: times[transactions - 1]!,
  };
}

const dir = tempDir("muster-commit-");
try {
  const results = new Map<Variant, Figures[]>(variants.map((v) => [v, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of round % 2 ? [...variants].reverse() : variants) results.get(variant)!.push(run(dir, variant));
  }
  const single = median(results.get(variants[0]!)!.map((f) => f.wallUs));
  console.log(`commit cost: ${machine()}; commit ${commit()}; ${INSERTS} inserts per run, ${ROUNDS} rounds, medians\n`);
  console.log("| inserts | µs per insert (wall) | vs 1 per transaction | CPU µs per insert | transaction p99 / max ms |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [variant, figures] of results) {
    const wall = median(figures.map((f) => f.wallUs));
    const cells = [wall.toFixed(1), `${(wall / single).toFixed(2)}x`, median(figures.map((f) => f.cpuUs)).toFixed(1), `${median(figures.map((f) => f.p99Ms)).toFixed(2)} / ${median(figures.map((f) => f.maxMs)).toFixed(1)}`];
    console.log(`| ${variant.label} | ${cells.join(" | ")} |`);
  }
} finally {
  removeTempDir(dir);
}
