// A small accessible chart: stacked bars or lines drawn as SVG (`role="img"` with a label
// saying what it shows and its total), a legend, and the same figures as a table that screen
// readers read (visually hidden unless `showTable`). Chosen over uPlot, which draws on a
// canvas a screen reader cannot read and would add ~50 KB; the console's charts are a few
// dozen points (docs/console/usage.md).
import type { ComponentChildren } from "preact";
import { html } from "../html.ts";

export interface ChartSeries {
  /** The series' name (an agent, a model): in the legend and as a table column. */
  label: string;
  /** One value per category, in the order of `categories`. */
  values: readonly number[];
}

export interface ChartProps {
  /** What the chart shows ("Cost per day by agent"): the image's label and the table's caption. */
  title: string;
  /** The x axis: one label per bar or point (dates). */
  categories: readonly string[];
  series: readonly ChartSeries[];
  /** "bar" stacks the series per category; "line" draws one line per series. */
  kind?: "bar" | "line";
  /** How a value is written (axis, table, label): `$1.20`, `12,000`. */
  format?: (value: number) => string;
  /** A shorter category label under the axis (the table keeps the full one). */
  shortCategory?: (category: string) => string;
  /** The table's first column header ("Day"). */
  categoryLabel?: string;
  /** Shows the table to everyone (it is always there for screen readers). */
  showTable?: boolean;
}

/** Colours with at least 3:1 contrast on white (WCAG 1.4.11), told apart by the legend and the table too. */
const PALETTE = ["#3b5bdb", "#d9480f", "#2b8a3e", "#ae3ec9", "#c92a2a", "#0b7285", "#5c940d", "#862e9c", "#e8590c", "#495057"];
export const seriesColour = (index: number): string => PALETTE[index % PALETTE.length]!;

const WIDTH = 640;
const HEIGHT = 240;
const PAD = { top: 12, right: 12, bottom: 28, left: 64 };
const plain = new Intl.NumberFormat();

/** A round upper bound for the axis (1, 2 or 5 times a power of ten). */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

export function Chart({ title, categories, series, kind = "bar", format = (value) => plain.format(value), shortCategory = (category) => category, categoryLabel = "Category", showTable = false }: ChartProps) {
  const totals = categories.map((_, index) => series.reduce((sum, one) => sum + (one.values[index] ?? 0), 0));
  const top = niceMax(kind === "bar" ? Math.max(0, ...totals) : Math.max(0, ...series.flatMap((one) => one.values)));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, categories.length);
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const x = (index: number) => PAD.left + slot * index + slot / 2;
  const everyNth = Math.max(1, Math.ceil(categories.length / 8));
  const grandTotal = totals.reduce((sum, value) => sum + value, 0);
  const label = `${title}: ${format(grandTotal)} in total over ${categories.length} ${categories.length === 1 ? "entry" : "entries"}${series.length ? `, ${series.map((one) => one.label).join(", ")}` : ""}. The figures are in the table that follows.`;

  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (fraction) => html`<g key=${fraction}>
      <line x1=${PAD.left} x2=${WIDTH - PAD.right} y1=${y(top * fraction)} y2=${y(top * fraction)} stroke="#e1e5ec" />
      <text x=${PAD.left - 6} y=${y(top * fraction) + 4} text-anchor="end" font-size="11" fill="#5f6b7d">${format(top * fraction)}</text>
    </g>`,
  );
  let marks: ComponentChildren;
  if (kind === "bar") {
    const barWidth = Math.max(2, slot * 0.7);
    marks = categories.map((_, index) => {
      let base = 0;
      return html`<g key=${index}>${series.map((one, seriesIndex) => {
        const value = one.values[index] ?? 0;
        const from = base;
        base += value;
        return value > 0 ? html`<rect x=${x(index) - barWidth / 2} width=${barWidth} y=${y(base)} height=${Math.max(0.5, y(from) - y(base))} fill=${seriesColour(seriesIndex)} />` : null;
      })}</g>`;
    });
  } else {
    marks = series.map((one, seriesIndex) => {
      const points = categories.map((_, index) => `${x(index)},${y(one.values[index] ?? 0)}`).join(" ");
      return html`<g key=${one.label}>
        <polyline points=${points} fill="none" stroke=${seriesColour(seriesIndex)} stroke-width="2" />
        ${categories.map((_, index) => html`<circle cx=${x(index)} cy=${y(one.values[index] ?? 0)} r="3" fill=${seriesColour(seriesIndex)} />`)}
      </g>`;
    });
  }
  const axis = categories.map((category, index) =>
    index % everyNth === 0 ? html`<text key=${category} x=${x(index)} y=${HEIGHT - 8} text-anchor="middle" font-size="11" fill="#5f6b7d">${shortCategory(category)}</text>` : null,
  );

  return html`<figure class="chart">
    <svg role="img" aria-label=${label} viewBox=${`0 0 ${WIDTH} ${HEIGHT}`} width="100%" preserveAspectRatio="xMidYMid meet">
      ${grid}${marks}${axis}
    </svg>
    ${series.length
      ? html`<ul class="chart-legend" aria-hidden="true">${series.map(
          (one, index) => html`<li key=${one.label}><svg width="10" height="10" viewBox="0 0 10 10"><rect width="10" height="10" rx="2" fill=${seriesColour(index)} /></svg> ${one.label}</li>`,
        )}</ul>`
      : null}
    <div class=${showTable ? "table-wrap" : "visually-hidden"}>
      <table class="data">
        <caption>${title}</caption>
        <thead><tr><th scope="col">${categoryLabel}</th>${series.map((one) => html`<th scope="col">${one.label}</th>`)}${series.length > 1 ? html`<th scope="col">Total</th>` : null}</tr></thead>
        <tbody>
          ${categories.map(
            (category, index) => html`<tr key=${category}><th scope="row">${category}</th>${series.map((one) => html`<td>${format(one.values[index] ?? 0)}</td>`)}${series.length > 1 ? html`<td>${format(totals[index] ?? 0)}</td>` : null}</tr>`,
          )}
        </tbody>
      </table>
    </div>
  </figure>`;
}
