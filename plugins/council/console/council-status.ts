// A council's state in one badge: running, adopted / no consensus, failed, cancelled, ratified.
import { html, Badge } from "@muster/console";

interface StatusFields {
  status: "running" | "completed" | "failed" | "cancelled";
  outcome: "adopted" | "no_consensus" | null;
  ratifiedAt: string | null;
}

export function StatusBadge({ session }: { session: StatusFields }) {
  if (session.status === "running") return html`<${Badge} tone="info">Running<//>`;
  if (session.status === "failed") return html`<${Badge} tone="bad">Failed<//>`;
  if (session.status === "cancelled") return html`<${Badge} tone="muted">Cancelled<//>`;
  if (session.ratifiedAt) return html`<${Badge} tone="ok">Adopted, ratified<//>`;
  return session.outcome === "adopted" ? html`<${Badge} tone="ok">Adopted<//>` : html`<${Badge} tone="muted">No consensus<//>`;
}
