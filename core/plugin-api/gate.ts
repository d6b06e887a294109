/**
 * The approval gate (DESIGN §8): no external action runs without an explicit human
 * approval. A plugin declares an action kind with an executor in its definition's
 * `gatedActions` (`defineGatedAction`); requesting it creates a
 * `pending` approval holding the exact payload and its SHA-256; only an explicit
 * `approved` decision runs the executor, once, with the stored payload.
 */
export interface GatedAction<P = unknown> {
  /** A one-line human description of what approving will do with this payload. */
  describe(payload: P): string;
  /** Performs the external action. Its result (or error) is recorded on the approval. */
  execute(payload: P, decision: { approvalId: string; decidedBy: string }): Promise<unknown>;
}

export interface GateRequestOptions {
  /** Who asks (an agent id or a user name); may not decide the request. */
  requestedBy: string;
  /** Human-readable subject, shown in the queue. */
  title: string;
  /** Task reference or free-text subject; defaults to `title`. */
  taskId?: string;
  /** Longer context for the human. */
  context?: string;
  /** After this instant the approval can no longer be approved. */
  expiresAt?: Date;
}

export interface GateRequestResult {
  approvalId: string;
  status: "pending";
}

/**
 * The gate as plugins see it (`ctx.gate`, `hostTokens.gate`): requesting and reading kinds.
 * Kinds are declared only in a definition's `gatedActions`, which the host defines at start.
 */
export interface ApprovalGate {
  /** Creates a pending approval for `kind`; nothing runs until a human approves. */
  request<P>(kind: string, payload: P, options: GateRequestOptions): Promise<GateRequestResult>;
  /** The declared action for a kind, if any (used by the approvals plugin to execute). */
  action(kind: string): GatedAction | undefined;
  /** Every declared kind. */
  kinds(): string[];
}

/**
 * What the approvals plugin provides to the host so that `gate.request` can create
 * approvals. Registered under the `host.gateBackend` token.
 */
export interface GateBackend {
  createGatedApproval(kind: string, payload: unknown, options: GateRequestOptions): Promise<GateRequestResult>;
}
