// The approval steps a test takes over HTTP, written once: find the approval a gated action
// raised, decide it as the human, approve whatever is pending. Needs the approvals plugin.
import type { Operations } from "@muster/sdk/client";
import type { Answer, FromRoute, JsonBody } from "./api-body.ts";
import { waitUntil, type WaitOptions } from "./wait.ts";

/** One approval with its payload (`GET /api/approvals/{id}`). */
export type Approval = Operations["getApprovalsById"]["response"]["approval"];
/** One approval as lists show it (no payload). */
export type ApprovalSummary = Operations["getApprovals"]["response"]["pending"][number];
export type ApprovalDecision = "approved" | "rejected";

export type { Answer, ApiErrorBody } from "./api-body.ts";

export interface DecideOptions {
  /** Who decides (default: the server's choice, the owner). */
  decidedBy?: string;
  reason?: string;
  /** Send the session token (default true; false to assert the refusal without it). */
  session?: boolean;
  /** Extra headers (an `x-agent-id` to assert that agents never decide). */
  headers?: Record<string, string>;
}

/** Anything that calls a host's JSON routes: a {@link TestHost}, or a host in a child process. */
export interface ApprovalHost {
  /** Typed as {@link TestHost.json}: the route's answer from the path and method, else `unknown`. */
  json<T = FromRoute, const P extends string = string, M extends string = "GET">(path: P, init?: { method?: M | (string & {}); body?: unknown; session?: boolean; headers?: Record<string, string> }): Promise<{ status: number; body: JsonBody<T, M, P> }>;
}
type Host = ApprovalHost;

/**
 * `PATCH /api/approvals/{approvalId}` as the human (session token). The raw answer is returned,
 * not thrown on: tests also assert refusals (409 already decided, 403 not an approver).
 */
export function decideApproval(host: Host, approvalId: string, decision: ApprovalDecision, by?: string | DecideOptions): Promise<{ status: number; body: Answer<Operations["patchApprovalsById"]["response"]> }> {
  const { session = true, headers, ...body } = typeof by === "string" ? { decidedBy: by } : (by ?? {});
  return host.json(`/api/approvals/${encodeURIComponent(approvalId)}`, { method: "PATCH", session, headers, body: { status: decision, ...body } });
}

/** Approves and returns the decided approval; throws (with the answer) when the server refused. */
export async function approve(host: Host, approvalId: string, by?: string | DecideOptions): Promise<Approval> {
  const res = await decideApproval(host, approvalId, "approved", by);
  if (res.status !== 200 || !res.body.approval) throw new Error(`approving ${approvalId} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.approval;
}

/** Every approval the server keeps, pending first, then decided, newest first (up to 500 of each). */
export async function listApprovals(host: Host): Promise<ApprovalSummary[]> {
  const res = await host.json<Operations["getApprovals"]["response"]>("/api/approvals?limit=500&pendingLimit=500");
  if (res.status !== 200) throw new Error(`GET /api/approvals answered ${res.status}: ${JSON.stringify(res.body)}`);
  return [...res.body.pending, ...res.body.history];
}

/** One approval with its payload. */
export async function getApproval(host: Host, approvalId: string): Promise<Approval> {
  const res = await host.json<Operations["getApprovalsById"]["response"]>(`/api/approvals/${encodeURIComponent(approvalId)}`);
  if (res.status !== 200) throw new Error(`GET /api/approvals/${approvalId} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.approval;
}

export interface WaitForApprovalOptions extends WaitOptions {
  /** Only these list entries are read in full and shown to `match` (saves a read per unrelated approval). */
  where?: (summary: ApprovalSummary) => boolean;
}

/**
 * Waits for the first approval (pending or decided, newest first within each) that `match`
 * accepts, and returns it with its payload. `match` sees the full record, so it may look into
 * the payload.
 */
export function waitForApproval(host: Host, match: (approval: Approval) => boolean, options: WaitForApprovalOptions = {}): Promise<Approval> {
  const { where = () => true, ...wait } = options;
  return waitUntil(
    async () => {
      const candidates = (await listApprovals(host)).filter(where);
      const full = await Promise.all(candidates.map((summary) => getApproval(host, summary.id)));
      return full.find(match);
    },
    { timeoutMs: 5_000, label: "an approval", ...wait },
  );
}

/** Approves every pending approval `match` accepts (default all); returns them decided. */
export async function approveAll(host: Host, match: (approval: ApprovalSummary) => boolean = () => true, by?: string | DecideOptions): Promise<Approval[]> {
  const pending = (await listApprovals(host)).filter((a) => a.status === "pending" && match(a));
  const decided: Approval[] = [];
  for (const approval of pending) decided.push(await approve(host, approval.id, by));
  return decided;
}
