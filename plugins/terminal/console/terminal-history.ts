// The commands this browser tab ran, newest first, kept in sessionStorage so a reload keeps
// them (the server keeps no command text: its terminal events carry only exit codes).
import { html, Badge } from "@muster/console";

export interface HistoryItem {
  command: string;
  cwd: string;
  at: string;
  /** The exit code, or the API's refusal code. */
  outcome: number | string;
}

const KEY = "muster.terminal.history";
const LIMIT = 50;

export function loadHistory(): HistoryItem[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? "[]");
    return Array.isArray(parsed) ? (parsed as HistoryItem[]) : [];
  } catch {
    return [];
  }
}

export function remember(history: HistoryItem[], item: HistoryItem): HistoryItem[] {
  const next = [item, ...history].slice(0, LIMIT);
  sessionStorage.setItem(KEY, JSON.stringify(next));
  return next;
}

export function HistoryList({ items, onReuse }: { items: readonly HistoryItem[]; onReuse: (item: HistoryItem) => void }) {
  if (items.length === 0) return html`<p class="empty">No commands run from this tab yet.</p>`;
  return html`<ol class="terminal-history">
    ${items.map(
      (item, index) => html`<li key=${`${index}-${item.at}`}>
        <code>${item.command}</code>${item.cwd ? html` <span class="meta">in ${item.cwd}</span>` : null}
        ${" "}<${Badge} tone=${typeof item.outcome === "string" ? "bad" : item.outcome === 0 ? "ok" : "warn"}>${typeof item.outcome === "string" ? item.outcome : `exit ${item.outcome}`}<//>
        ${" "}<button type="button" class="button plain" aria-label=${`Use again: ${item.command}`} onClick=${() => onReuse(item)}>Use again</button>
      </li>`,
    )}
  </ol>`;
}
