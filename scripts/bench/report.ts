// Formats the `npm run bench:api` results as Markdown and writes them between the api
// markers of docs/benchmarks.md, leaving every other section of that shared file alone.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { LoadFigures } from "./load.ts";
import type { ProfileSummary, Share } from "./profile-summary.ts";

export interface BenchRow {
  label: string;
  muster: LoadFigures;
  baseline: LoadFigures;
}

export interface Target {
  what: string;
  goal: string;
  measured: string;
  pass: boolean;
}

export interface ColdStart {
  /** Spawn to the first 200 from GET /api/health. */
  wallMs: number;
  /** CPU (user + system, all threads) used by then. */
  cpuMs: number | null;
  /** The health answer's `uptimeMs`: time spent after `createHost()`. */
  hostMs: number | null;
  /** The server's own phase breakdown ("muster started" log line), in order. */
  phases: { name: string; ms: number }[];
  /** Whether the start-up bundle ran (core/start/), from the same line. */
  bundled: boolean | null;
}

/** Median of each phase over the runs, in the first run's order. */
export function phaseMedians(runs: ColdStart[]): { name: string; ms: number }[] {
  const names = runs[0]?.phases.map((p) => p.name) ?? [];
  return names.map((name) => ({ name, ms: median(runs.map((r) => r.phases.find((p) => p.name === name)?.ms ?? 0)) }));
}

export interface BenchReport {
  command: string;
  machine: string;
  date: string;
  settings: string;
  coldStarts: ColdStart[];
  rows: BenchRow[];
  targets: Target[];
  /** Lines of the recent-runs table (history.ts). */
  history: string[];
  profiles: { label: string; summary: ProfileSummary; note: string }[];
  analysis: string[];
}

const START = "<!-- api:start -->";
const END = "<!-- api:end -->";

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const pct = (n: number) => `${n.toFixed(0)}%`;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function shares(title: string, list: Share[], limit: number): string[] {
  return [`| ${title} | ms | % of busy |`, "|---|---:|---:|", ...list.slice(0, limit).map((s) => `| ${s.name.replace(/\|/g, "\\|")} | ${int(s.ms)} | ${s.pct.toFixed(1)} |`)];
}

export function renderMarkdown(r: BenchReport): string {
  const lines = [
    "## HTTP API: Muster against a bare node:http + better-sqlite3 baseline",
    "",
    `Command: \`${r.command}\`. Machine: ${r.machine}. Measured ${r.date}.`,
    "",
    r.settings,
    "",
    `Cold start (spawn of \`node core/entry.js start\`, what \`npm start\` runs, to the first 200 from \`GET /api/health\`, fresh \`MUSTER_HOME\` each time; start-up bundle ${r.coldStarts.every((c) => c.bundled) ? "used" : "NOT used in every run"}): median **${int(median(r.coldStarts.map((c) => c.wallMs)))} ms** ` +
      `(runs: ${r.coldStarts.map((c) => int(c.wallMs)).join(", ")} ms; CPU used by then: ${r.coldStarts.map((c) => (c.cpuMs === null ? "n/a" : int(c.cpuMs))).join(", ")} ms).`,
    "",
    "Where the start goes (the server's own phases, median over the runs; the health answer follows the last):",
    "",
    "| phase | ms |",
    "|---|---:|",
    ...phaseMedians(r.coldStarts).map((p) => `| ${p.name} | ${p.ms.toFixed(1)} |`),
    "",
    "| endpoint | server | req/s mean | req/s median | p50 ms | p99 ms | requests | non-2xx | server CPU µs/request | Muster/baseline req/s | baseline/Muster CPU per request |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const row of r.rows) {
    const ratio = row.muster.rpsMean / row.baseline.rpsMean;
    const cpu = row.muster.cpuUsPerRequest && row.baseline.cpuUsPerRequest ? pct((100 * row.baseline.cpuUsPerRequest) / row.muster.cpuUsPerRequest) : "n/a";
    for (const [name, f] of [["Muster", row.muster], ["baseline", row.baseline]] as const) {
      const first = name === "Muster";
      lines.push(
        `| ${row.label} | ${name} | ${int(f.rpsMean)} | ${int(f.rpsMedian)} | ${ms(f.p50Ms)} | ${ms(f.p99Ms)} | ${int(f.requests)} | ${f.non2xx} | ${f.cpuUsPerRequest === null ? "n/a" : int(f.cpuUsPerRequest)} | ${first ? pct(ratio * 100) : ""} | ${first ? cpu : ""} |`,
      );
    }
  }
  lines.push("", "| target (issue 2) | goal | measured | |", "|---|---|---|---|");
  for (const t of r.targets) lines.push(`| ${t.what} | ${t.goal} | ${t.measured} | ${t.pass ? "pass ✔" : "**FAIL ✘**"} |`);
  lines.push("", ...r.history);
  lines.push("", "### Where the remaining time goes", "", ...r.analysis, "");
  for (const p of r.profiles) {
    lines.push(
      `Profile of the Muster process under ${p.label} (\`--cpu-prof\`, ${int(p.summary.busyMs)} ms of CPU busy in a ${int(p.summary.windowMs)} ms window; ${p.note}). ` +
        "Each sample is charged to the layer of the innermost JavaScript frame on its stack (native work such as JSON.stringify, better-sqlite3's `.all()` or the socket write goes to its JS caller):",
      "",
      ...shares("layer (exclusive)", p.summary.layers, 12),
      "",
      ...shares("function (self time)", p.summary.functions, 8),
      "",
    );
  }
  return lines.join("\n");
}

/** Replaces (or appends) the api section of docs/benchmarks.md. */
export function writeSection(file: string, markdown: string): void {
  const section = `${START}\n${markdown.trimEnd()}\n${END}`;
  const current = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n";
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const next = start >= 0 && end > start ? current.slice(0, start) + section + current.slice(end + END.length) : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}
