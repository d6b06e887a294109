// Recent bench:api runs, kept inside the api section of docs/benchmarks.md (as a JSON
// comment) so that the report shows medians over runs: on a shared machine one run can
// land in a burst of other work.
import { existsSync, readFileSync } from "node:fs";
import { median } from "./report.ts";

export interface RunSummary {
  date: string;
  /** Short commit the run measured (with "+" when the working tree had changes). */
  commit: string;
  /** 1-minute load average at the start of the run. */
  load: number;
  listRatio: number;
  createRatio: number;
  listP99: number;
  createP99: number;
  baselineListP99: number;
  baselineCreateP99: number;
  coldMs: number;
}

const TAG = "<!-- api:history ";
const KEEP = 8;

/** The runs recorded in the api section of `file` (none when absent or unreadable). */
export function readHistory(file: string): RunSummary[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(TAG);
  if (at < 0) return [];
  const end = text.indexOf(" -->", at);
  try {
    const runs = JSON.parse(text.slice(at + TAG.length, end)) as unknown;
    return Array.isArray(runs) ? (runs as RunSummary[]) : [];
  } catch {
    return [];
  }
}

const pct = (n: number) => `${(100 * n).toFixed(0)}%`;

/** The table of the last runs with their medians, and the hidden record for the next run. */
export function renderHistory(previous: RunSummary[], current: RunSummary): string[] {
  const round = (n: number, digits: number) => Number(n.toFixed(digits));
  const compact: RunSummary = { ...current, load: round(current.load, 1), listRatio: round(current.listRatio, 3), createRatio: round(current.createRatio, 3), coldMs: Math.round(current.coldMs) };
  const runs = [...previous, compact].slice(-KEEP);
  const row = (r: Omit<RunSummary, "date" | "commit" | "load">, first: string) =>
    `| ${first} | ${pct(r.listRatio)} | ${pct(r.createRatio)} | ${r.listP99} (${r.baselineListP99}) | ${r.createP99} (${r.baselineCreateP99}) | ${Math.round(r.coldMs).toLocaleString("en-US")} |`;
  const mid = (pick: (r: RunSummary) => number) => median(runs.map(pick));
  return [
    `Recent runs (the last ${KEEP} kept; each names the commit it measured):`,
    "",
    "| run | GET /api/tasks vs baseline | POST /api/tasks vs baseline | GET p99 ms (baseline) | POST p99 ms (baseline) | cold start ms |",
    "|---|---:|---:|---:|---:|---:|",
    ...runs.map((r) => row(r, `${r.date.slice(0, 16).replace("T", " ")} ${r.commit}, load ${r.load.toFixed(1)}`)),
    row(
      {
        listRatio: mid((r) => r.listRatio),
        createRatio: mid((r) => r.createRatio),
        listP99: mid((r) => r.listP99),
        createP99: mid((r) => r.createP99),
        baselineListP99: mid((r) => r.baselineListP99),
        baselineCreateP99: mid((r) => r.baselineCreateP99),
        coldMs: mid((r) => r.coldMs),
      },
      `**median of ${runs.length}**`,
    ),
    "",
    `${TAG}${JSON.stringify(runs)} -->`,
  ];
}
