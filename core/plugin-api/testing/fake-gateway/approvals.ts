// Exec, plugin and system-agent approval requests: raised by an agent run (or a test), listed
// and resolved by a client with `operator.approvals`, announced to connections that asked for
// the `approvals` cap.
import { randomUUID } from "node:crypto";
import { hasScope } from "./scopes.ts";
import { invalid, type Broadcast, type FakeApproval, type FakeApprovalKind, type FakeConnection } from "./types.ts";

/** The resolve method of each kind (the real gateway's `*.approval.resolve`; `approval.resolve` for system-agent). */
const RESOLVE_METHODS: Record<string, FakeApprovalKind> = { "exec.approval.resolve": "exec", "plugin.approval.resolve": "plugin", "approval.resolve": "openclaw" };
export const APPROVAL_EVENTS = ["exec", "plugin", "openclaw"].flatMap((k) => [`${k}.approval.requested`, `${k}.approval.resolved`]);
export const APPROVAL_METHODS = ["exec.approval.list", "plugin.approval.list", ...Object.keys(RESOLVE_METHODS)];
const APPROVAL_DECISIONS = new Set(["allow-once", "allow-always", "deny"]);

export class FakeApprovals {
  /** Pending approval requests (kept across stop/start, as the real gateway's store is). */
  readonly pending = new Map<string, FakeApproval>();
  /** Every resolution, in order: by a client's resolve call or by {@link resolve}. */
  readonly resolutions: Array<{ id: string; decision: string; resolvedBy: string }> = [];

  private readonly broadcast: Broadcast;

  constructor(broadcast: Broadcast) {
    this.broadcast = broadcast;
  }

  raise(kind: FakeApprovalKind, request: Record<string, unknown>, options: { id?: string; timeoutMs?: number } = {}): FakeApproval {
    const createdAtMs = Date.now();
    const approval: FakeApproval = { kind, id: options.id ?? randomUUID(), request, createdAtMs, expiresAtMs: createdAtMs + (options.timeoutMs ?? 30 * 60_000) };
    this.pending.set(approval.id, approval);
    this.announce(kind, "requested", { id: approval.id, request, createdAtMs, expiresAtMs: approval.expiresAtMs });
    return approval;
  }

  resolve(id: string, decision: string, resolvedBy = "control-ui"): boolean {
    const approval = this.pending.get(id);
    if (!approval) return false;
    this.pending.delete(id);
    this.resolutions.push({ id, decision, resolvedBy });
    this.announce(approval.kind, "resolved", { id, decision, resolvedBy, ts: Date.now(), request: approval.request });
    return true;
  }

  /** `*.approval.list` and `*.approval.resolve`. */
  method(method: string, params: any, conn: FakeConnection): unknown {
    if (method.endsWith(".list")) {
      const kind = method.split(".")[0] as FakeApprovalKind;
      return [...this.pending.values()].filter((a) => a.kind === kind).map(({ id, request, createdAtMs, expiresAtMs }) => ({ id, request, createdAtMs, expiresAtMs }));
    }
    if (typeof params.id !== "string" || !params.id) throw invalid(`invalid ${method} params: must have required property 'id'`);
    if (!APPROVAL_DECISIONS.has(params.decision)) throw invalid("invalid decision");
    const approval = this.pending.get(params.id);
    if (!approval || approval.kind !== RESOLVE_METHODS[method]) throw invalid("unknown or expired approval id", { reason: "APPROVAL_NOT_FOUND" });
    this.resolve(params.id, params.decision, `conn-${conn.id}`);
    return { ok: true };
  }

  /** To connections with `operator.admin`/`operator.approvals` and the `approvals` cap (the real gateway's canDeliverApprovals). */
  private announce(kind: FakeApprovalKind, phase: "requested" | "resolved", payload: unknown): void {
    const canDeliver = (conn: FakeConnection) => hasScope(conn.scopes, "operator.approvals") && conn.caps.includes("approvals");
    this.broadcast(`${kind}.approval.${phase}`, payload, canDeliver);
  }
}
