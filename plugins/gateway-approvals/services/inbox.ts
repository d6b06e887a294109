import { MusterError, type ApprovalGate, type GatedAction, type GatewayClient, type Logger } from "@muster/plugin";
import type { ApprovalEventPayload } from "../../approvals/events.ts";
import type { ApprovalQueue } from "../../approvals/tokens.ts";
import type { AutoDenyRule } from "../config.ts";
import type { Digest } from "./digest.ts";
import { KINDS, isRequest, isResolved, kindOfCommand, kindSpec, type GatewayApprovalRequest, type GatewayApprovalResolved, type KindSpec } from "./kinds.ts";
import { matchAutoDeny } from "./policy.ts";
import type { RequestStore } from "./request-store.ts";

export interface InboxDeps {
  store: RequestStore;
  approvals: ApprovalQueue;
  gate: ApprovalGate;
  gateway: GatewayClient;
  digest: Digest;
  autoDeny: readonly AutoDenyRule[];
  logger: Logger;
  now?: () => Date;
}

/** Who closes a Muster approval when the gateway settled the request first. */
export const GATEWAY_DECIDER = "openclaw";
export const POLICY_DECIDER = "policy";

/** The stored payload: exactly what the gateway asked, under its id. */
export interface StoredPayload {
  gatewayId: string;
  kind: string;
  request: GatewayApprovalRequest["request"];
}

/**
 * The gateway's approval requests as Muster approvals, both ways (docs/approvals.md, "One inbox").
 * Gateway events and reconciliations run one at a time (a chain), so a reconnect's listing
 * and a live event for the same id never interleave.
 */
export class GatewayApprovalInbox {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly deps: InboxDeps;
  constructor(deps: InboxDeps) {
    this.deps = deps;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch((error) => this.deps.logger.warn({ err: error }, "gateway approvals: step failed"));
    return run;
  }

  /** The gated action of one kind (declared in services/gated-actions.ts): approving resolves the request allow-once in the gateway. */
  gatedAction(spec: KindSpec): GatedAction<StoredPayload> {
    return {
      describe: (payload) => describe(spec, payload),
      execute: async (payload) => {
        await this.deps.gateway.request(spec.resolveMethod, { id: payload.gatewayId, decision: "allow-once" });
        await this.deps.store.close(payload.gatewayId);
        return { gatewayId: payload.gatewayId, decision: "allow-once" };
      },
    };
  }

  requested(kind: string, event: unknown): Promise<void> {
    const spec = kindSpec(kind);
    if (!spec || !isRequest(event)) return Promise.resolve();
    return this.serial(() => this.admit(spec, event));
  }

  resolved(kind: string, event: unknown): Promise<void> {
    if (!kindSpec(kind) || !isResolved(event)) return Promise.resolve();
    return this.serial(() => this.closeFromGateway(event));
  }

  /** A Muster approval was rejected (by a human, a rule or its expiry): deny it in the gateway too. */
  approvalRejected(approval: ApprovalEventPayload): Promise<void> {
    const spec = kindOfCommand(approval.command);
    if (!spec || approval.decidedBy === GATEWAY_DECIDER) return Promise.resolve();
    return this.serial(async () => {
      const row = await this.deps.store.byApproval(approval.id);
      if (row?.state === "open") await this.settle(spec, row.gatewayId, "deny");
    });
  }

  /**
   * On every (re)connect: requests pending in the gateway that Muster has not seen become
   * approvals; ones Muster decided while the gateway was away are settled now with that
   * decision; open ones the gateway no longer lists are closed in Muster as settled there.
   */
  reconcile(): Promise<void> {
    return this.serial(async () => {
      for (const spec of KINDS) {
        if (!spec.listMethod) continue;
        let listed: unknown;
        try {
          listed = await this.deps.gateway.request(spec.listMethod, {});
        } catch (error) {
          this.deps.logger.warn({ err: error, method: spec.listMethod }, "gateway approvals: listing pending requests failed; reconciled on the next connect");
          continue;
        }
        const pending = (Array.isArray(listed) ? listed : []).filter(isRequest);
        const ids = new Set(pending.map((p) => p.id));
        for (const request of pending) await this.reconcileOne(spec, request);
        for (const row of await this.deps.store.open(spec.kind)) {
          if (ids.has(row.gatewayId)) continue;
          await this.deps.store.close(row.gatewayId);
          if (row.approvalId) await this.closeApproval(row.approvalId, "rejected", "no longer pending in the OpenClaw gateway (settled or expired there while Muster was not connected)");
        }
      }
    });
  }

  private async reconcileOne(spec: KindSpec, request: GatewayApprovalRequest): Promise<void> {
    const row = await this.deps.store.get(request.id);
    if (!row?.approvalId) {
      if (row) await this.deps.store.release(request.id);
      await this.admit(spec, request);
      return;
    }
    if (row.state === "closed") return;
    const approval = await this.deps.approvals.get(row.approvalId);
    if (approval.status === "rejected") await this.settle(spec, request.id, "deny");
    // Approved in Muster but the gateway was gone when the executor called it: the human's
    // decision stands, so it is sent again now.
    else if (approval.status === "approved" && approval.decidedBy !== GATEWAY_DECIDER && approval.executionStatus === "failed") await this.settle(spec, request.id, "allow-once");
  }

  private async admit(spec: KindSpec, event: GatewayApprovalRequest): Promise<void> {
    const now = this.now();
    if (!(await this.deps.store.claim(event.id, spec.kind, now.toISOString()))) return;
    const agentId = typeof event.request.agentId === "string" && event.request.agentId ? event.request.agentId : null;
    let approvalId: string;
    try {
      const expires = typeof event.expiresAtMs === "number" && event.expiresAtMs > now.getTime() + 1_000 ? new Date(event.expiresAtMs) : undefined;
      ({ approvalId } = await this.deps.gate.request<StoredPayload>(spec.command, { gatewayId: event.id, kind: spec.kind, request: event.request }, {
        requestedBy: agentId ?? "openclaw",
        title: title(spec, event),
        context: context(event),
        ...(expires ? { expiresAt: expires } : {}),
      }));
    } catch (error) {
      await this.deps.store.release(event.id);
      throw error;
    }
    await this.deps.store.attach(event.id, approvalId);
    const rule = matchAutoDeny(this.deps.autoDeny, spec.kind, agentId);
    if (rule) {
      // The rejected event that follows denies it in the gateway.
      await this.closeApproval(approvalId, "rejected", `auto-denied by rule "${rule.name}"`, POLICY_DECIDER);
      return;
    }
    this.deps.digest.check(await this.deps.store.openCount());
  }

  private async closeFromGateway(event: GatewayApprovalResolved): Promise<void> {
    const row = await this.deps.store.get(event.id);
    if (!row || !(await this.deps.store.close(event.id)) || !row.approvalId) return;
    const status = event.decision === "deny" ? "rejected" : "approved";
    await this.closeApproval(row.approvalId, status, `${event.decision} in the OpenClaw gateway${event.resolvedBy ? ` by ${event.resolvedBy}` : ""}`);
  }

  /** Closes a pending approval from outside; losing to a decision already made is expected and ignored. */
  private async closeApproval(approvalId: string, status: "approved" | "rejected", reason: string, decidedBy = GATEWAY_DECIDER): Promise<void> {
    try {
      await this.deps.approvals.closeExternally(approvalId, { status, decidedBy, reason });
    } catch (error) {
      if (error instanceof MusterError && error.status === 409) return;
      throw error;
    }
  }

  /** Sends a decision to the gateway; an unknown id means it was settled there already. A gateway that is down is retried on reconnect. */
  private async settle(spec: KindSpec, gatewayId: string, decision: "allow-once" | "deny"): Promise<void> {
    try {
      await this.deps.gateway.request(spec.resolveMethod, { id: gatewayId, decision });
      await this.deps.store.close(gatewayId);
    } catch (error) {
      if (error instanceof MusterError && error.code === "GATEWAY_ERROR") {
        await this.deps.store.close(gatewayId);
        return;
      }
      this.deps.logger.warn({ err: error, gatewayId }, "gateway approvals: could not send the decision; retried on reconnect");
    }
  }
}

function title(spec: KindSpec, event: GatewayApprovalRequest): string {
  const what = typeof event.request.command === "string" ? event.request.command : typeof event.request.title === "string" ? event.request.title : event.id;
  const label = spec.kind === "exec" ? "Run shell command" : spec.kind === "plugin" ? "OpenClaw plugin action" : "OpenClaw action";
  return `${label}: ${what}`.slice(0, 500);
}

function context(event: GatewayApprovalRequest): string {
  const r = event.request;
  const parts = [r.agentId ? `agent ${r.agentId}` : null, r.cwd ? `in ${r.cwd}` : null, r.sessionKey ? `session ${r.sessionKey}` : null, `gateway request ${event.id}`];
  return parts.filter(Boolean).join(", ");
}

function describe(spec: KindSpec, payload: StoredPayload): string {
  const command = typeof payload.request.command === "string" ? ` \`${payload.request.command}\`` : "";
  return `Allows${command} once in the OpenClaw gateway (${spec.resolveMethod} allow-once on ${payload.gatewayId}); rejecting denies it there.`;
}
