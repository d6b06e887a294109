// A table for a page's records: a caption naming it, column headers, one row per record,
// and a "Show more" step instead of drawing thousands of rows at once.
import { useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { html } from "../html.ts";
import { Empty } from "./basics.ts";

export interface Column<Row> {
  label: string;
  /** The cell; by default the row's field of the same name as `key`, as text. */
  render?: (row: Row) => ComponentChildren;
  key?: keyof Row & string;
  class?: string;
}

export interface DataTableProps<Row> {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  empty?: ComponentChildren;
  /** Rows drawn at first and added by each "Show more" (default 100). */
  pageSize?: number;
  /** Caption visible (default) or only for screen readers. */
  captionHidden?: boolean;
}

export function DataTable<Row>({ caption, columns, rows, rowKey, empty = "Nothing here yet.", pageSize = 100, captionHidden = false }: DataTableProps<Row>) {
  const [shown, setShown] = useState(pageSize);
  if (!rows) return html`<p class="meta" aria-live="polite">Loading ${caption.toLowerCase()}…</p>`;
  if (rows.length === 0) return html`<${Empty}>${empty}<//>`;
  const visible = rows.slice(0, shown);
  return html`<div class="table-wrap">
    <table class="data">
      <caption class=${captionHidden ? "visually-hidden" : ""}>${caption}</caption>
      <thead><tr>${columns.map((column) => html`<th scope="col" class=${column.class}>${column.label}</th>`)}</tr></thead>
      <tbody>
        ${visible.map(
          (row) => html`<tr key=${rowKey(row)}>${columns.map(
            (column) => html`<td class=${column.class}>${column.render ? column.render(row) : column.key ? String(row[column.key] ?? "") : ""}</td>`,
          )}</tr>`,
        )}
      </tbody>
    </table>
    ${rows.length > shown
      ? html`<button type="button" class="button plain more" onClick=${() => setShown(shown + pageSize)}>Show more ${caption.toLowerCase()} (${rows.length - shown} more)</button>`
      : null}
  </div>`;
}
