// The Prometheus text exposition format, version 0.0.4: `# HELP` and `# TYPE` once per
// family, then one line per sample. Label values escape `\`, `"` and line feeds; help text
// escapes `\` and line feeds, so no value can end a line early or forge another sample.

// The shapes are published by @muster/plugin (contributors outside this repository type their families with them).
import type { MetricFamily } from "@muster/plugin";
export type { MetricFamily, MetricType, MetricSample as Sample } from "@muster/plugin";

export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

function labelSet(labels: Record<string, string> | undefined): string {
  const entries = Object.entries(labels ?? {});
  return entries.length ? `{${entries.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",")}}` : "";
}

export function renderExposition(families: MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) lines.push(`${family.name}${sample.suffix ?? ""}${labelSet(sample.labels)} ${formatValue(sample.value)}`);
  }
  return `${lines.join("\n")}\n`;
}
