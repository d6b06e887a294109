// The inbox's filters, kept in the address (`?kind=…&requester=…&q=…`) so a filtered view can
// be linked and survives a reload: by kind (the approval's type), by requester, and a search
// over titles, requesters, deciders, reasons and ids.
import { html, navigate, useRoute, Field } from "@muster/console";
import { kindLabel, kindOf, type ApprovalSummary } from "./approval-types.ts";

export interface Filters {
  kind: string;
  requester: string;
  q: string;
}

export function useFilters(): [Filters, (next: Partial<Filters>) => void] {
  const { query } = useRoute();
  const filters = { kind: query.get("kind") ?? "", requester: query.get("requester") ?? "", q: query.get("q") ?? "" };
  const set = (next: Partial<Filters>) => {
    const merged = { ...filters, ...next };
    const params = new URLSearchParams(Object.entries(merged).filter(([, value]) => value !== ""));
    const search = params.toString();
    navigate(`/console/approvals${search ? `?${search}` : ""}`, { replace: true });
  };
  return [filters, set];
}

export function matchesFilters(approval: ApprovalSummary, { kind, requester, q }: Filters): boolean {
  if (kind && kindOf(approval) !== kind) return false;
  if (requester && approval.requestedBy !== requester) return false;
  if (!q) return true;
  const needle = q.toLowerCase();
  return [approval.title, approval.requestedBy, approval.decidedBy, approval.reason, approval.id, kindOf(approval), approval.context]
    .some((field) => typeof field === "string" && field.toLowerCase().includes(needle));
}

const choices = (values: Iterable<string>, all: string, label: (value: string) => string = (value) => value) => [
  { value: "", label: all },
  ...[...new Set(values)].sort().map((value) => ({ value, label: label(value) })),
];

export function FilterBar({ filters, set, approvals }: { filters: Filters; set: (next: Partial<Filters>) => void; approvals: readonly ApprovalSummary[] }) {
  const kinds = choices([...approvals.map(kindOf), ...(filters.kind ? [filters.kind] : [])], "All kinds", kindLabel);
  const requesters = choices([...approvals.map((a) => a.requestedBy), ...(filters.requester ? [filters.requester] : [])], "Anyone");
  return html`<form class="toolbar" role="search" aria-label="Filter approvals" onSubmit=${(event: Event) => event.preventDefault()}>
    <${Field} as="select" label="Kind" name="kind" value=${filters.kind} options=${kinds} onInput=${(kind: string) => set({ kind })} />
    <${Field} as="select" label="Requested by" name="requester" value=${filters.requester} options=${requesters} onInput=${(requester: string) => set({ requester })} />
    <${Field} type="search" label="Search" name="q" value=${filters.q} placeholder="Title, requester, reason, id" onInput=${(q: string) => set({ q })} />
  </form>`;
}
