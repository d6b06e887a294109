// The usage page's charts: cost or tokens per day, by agent and by model, over a chosen number
// of days in the viewer's time zone (GET /api/usage/series), redrawn when a cost is recorded.
import { html, muster, useResource, useState, Chart, ErrorNote, Field, Section } from "@muster/console";
import { dollars, pivot, tokens, USAGE_EVENTS, type Measure } from "./usage-data.ts";

const viewerZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const RANGES = [
  { value: "7", label: "7 days" },
  { value: "14", label: "14 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
];
const MEASURES = [
  { value: "cost", label: "Estimated cost" },
  { value: "tokens", label: "Tokens (input + output)" },
];

/** `11-27` under the axis for `2026-11-27`. */
const shortDate = (date: string) => date.slice(5);

export function UsageCharts() {
  const [days, setDays] = useState("14");
  const [measure, setMeasure] = useState<Measure>("cost");
  const series = useResource(() => muster.getUsageSeries({ query: { days: Number(days), tz: viewerZone } }), { events: USAGE_EVENTS, deps: [days] });
  const format = measure === "cost" ? dollars : tokens;
  const what = measure === "cost" ? "Estimated cost" : "Tokens";
  const data = series.data;
  return html`<${Section} title="Over time" class="usage-over-time">
    <div class="toolbar">
      <${Field} label="Period" name="days" as="select" options=${RANGES} value=${days} onInput=${setDays} />
      <${Field} label="Show" name="measure" as="select" options=${MEASURES} value=${measure} onInput=${(value: string) => setMeasure(value as Measure)} />
    </div>
    <p class="meta">Days in your time zone (${viewerZone}).</p>
    <${ErrorNote} error=${series.error} />
    ${data
      ? data.points.length === 0
        ? html`<p class="empty">No usage recorded in these ${data.dates.length} days.</p>`
        : html`<div class="grid-2 usage-charts">
            <div class="usage-chart" data-chart="agent"><h3>${what} per day by agent</h3>
              <${Chart} title=${`${what} per day by agent`} categories=${data.dates} series=${pivot(data, "agentId", measure)} format=${format} shortCategory=${shortDate} categoryLabel="Day" /></div>
            <div class="usage-chart" data-chart="model"><h3>${what} per day by model</h3>
              <${Chart} title=${`${what} per day by model`} categories=${data.dates} series=${pivot(data, "model", measure)} format=${format} shortCategory=${shortDate} categoryLabel="Day" /></div>
          </div>`
      : html`<p class="meta" aria-live="polite">Loading usage…</p>`}
  <//>`;
}
