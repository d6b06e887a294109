import { randomUUID } from "node:crypto";
import { clip, hostErrors, retryWhileLocked, validationFailed, z, zodIssueDetails, type ApprovalGate, type GateRequestOptions, type GateRequestResult, type Instances, type Logger } from "@muster/plugin";
import { approvalErrors } from "../errors.ts";
import { asOf, hashPayload, isExpired, toApprovalRecord, toApprovalSummary, type ApprovalRecord, type ApprovalSummary, type StoredApproval } from "./approval-record.ts";
import type { ApprovalReports } from "./approval-reports.ts";
import type { ApprovalStore, NewApprovalRow } from "./approval-store.ts";
import { Deciders, personKey } from "./person.ts";
import { runExecutor, type ExecutionOutcome } from "./run-executor.ts";
import type { ApprovalQueue } from "../tokens.ts";

/** The body of `POST /api/approvals` (DESIGN §5 mapping). */
export interface NewApproval {
  title: string;
  type: string;
  requestedBy: string;
  context: string;
  taskId?: string;
  approver?: string;
  payload?: unknown;
  expiresAt?: string;
}

export interface Decision {
  status: "approved" | "rejected";
  reason?: string;
  /** Default: the configured owner. Must name the owner or a configured approver. */
  decidedBy?: string;
  /** The `X-Agent-Id` of the request; agents may not decide. */
  agentId?: string | null;
}

/** A decision made outside Muster's deciders (see {@link ApprovalQueue.closeExternally}). */
export interface ExternalOutcome {
  status: "approved" | "rejected";
  /** Where the outcome came from, for example "openclaw" or "policy". */
  decidedBy: string;
  reason: string;
}

export interface ApprovalServiceDeps {
  store: ApprovalStore;
  reports: ApprovalReports;
  gate: ApprovalGate;
  /** The configured owner: default approver and decider. */
  owner: string;
  /** The other configured humans who may decide (`MUSTER_APPROVERS`). */
  approvers: readonly string[];
  limits: {
    /** Unexpired pending approvals one requester (by {@link personKey}) may have at once. */
    maxPendingPerRequester: number;
    /** Largest payload, in UTF-8 bytes of its JSON text. */
    maxPayloadBytes: number;
    /** How long an approved action may run before it is recorded failed. */
    executionTimeoutMs: number;
  };
  logger: Logger;
  /** Replaces stored secret values in text (the vault's redaction when it is loaded). */
  redact: (text: string) => string;
  now?: () => Date;
  /** Which instances are alive: only executions none of them runs are recovered (team mode). */
  instances?: Instances;
}

const gateOptions = z.strictObject({
  requestedBy: z.string().trim().min(1).max(128),
  title: z.string().min(1).max(500),
  taskId: z.string().min(1).max(500).optional(),
  context: z.string().max(10_000).optional(),
  expiresAt: z.date().optional(),
});

/** The `GET /api/approvals` answer: one page of pending approvals and the latest history, without payloads. */
export interface ApprovalList {
  pending: ApprovalSummary[];
  /** All approvals pending now, across pages. */
  pendingTotal: number;
  history: ApprovalSummary[];
}

/** What the outcome of an execution says when even working it out failed: fixed text, nothing quoted. */
const OUTCOME_UNKNOWN: ExecutionOutcome = {
  status: "failed",
  result: null,
  error: "Muster could not work out the action's outcome; it may or may not have taken effect. The server log has the approval id.",
};

/**
 * The human approval queue and the backend of the approval gate (DESIGN §8). Approvals are
 * created `pending` only; a decision is one conditional update, so concurrent deciders get
 * exactly one transition; an approved gated action runs once, after the transition, with
 * the stored payload whose hash is re-checked.
 */
export class ApprovalService implements ApprovalQueue {
  private readonly deps: ApprovalServiceDeps;
  /** Built on the first decision: reading `deps.owner` at construction would resolve the owner before the server listens. */
  private deciders: Deciders | undefined;
  constructor(deps: ApprovalServiceDeps) {
    this.deps = deps;
  }

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  /** `POST /api/approvals`: a plain approval; approving it records the decision and runs nothing. */
  async create(input: NewApproval): Promise<ApprovalRecord> {
    if (this.deps.gate.action(input.type)) throw approvalErrors.APPROVAL_TYPE_GATED({ type: input.type });
    const payload = input.payload === undefined ? null : this.serialise(input.payload);
    return this.insert({
      taskId: input.taskId ?? input.title,
      title: input.title,
      requestedBy: input.requestedBy,
      approver: input.approver ?? this.deps.owner,
      command: input.type,
      context: input.context,
      description: null,
      gated: false,
      payload,
      payloadHash: payload === null ? null : hashPayload(payload),
      expiresAt: this.futureExpiry(input.expiresAt),
    });
  }

  /** The gate backend: a pending approval for a defined action kind, holding the exact payload. */
  async requestGated(kind: string, payload: unknown, options: GateRequestOptions): Promise<GateRequestResult> {
    const action = this.deps.gate.action(kind);
    if (!action) throw hostErrors.GATE_UNKNOWN_KIND({ kind });
    const parsed = gateOptions.safeParse(options);
    if (!parsed.success) {
      throw validationFailed("gate options", zodIssueDetails(parsed.error, undefined, "options"));
    }
    const o = parsed.data;
    const text = this.serialise(payload === undefined ? null : payload);
    let description: string | null = null;
    try {
      // Described from the stored text, so the human reads exactly what the executor will get.
      description = clip(String(action.describe(JSON.parse(text))), 2000);
    } catch (error) {
      this.deps.logger.warn({ kind, err: error }, "gated action describe() failed");
    }
    const record = await this.insert({
      taskId: o.taskId ?? o.title,
      title: o.title,
      requestedBy: o.requestedBy,
      approver: this.deps.owner,
      command: kind,
      context: o.context ?? null,
      description,
      gated: true,
      payload: text,
      payloadHash: hashPayload(text),
      expiresAt: this.futureExpiry(o.expiresAt?.toISOString()),
    });
    return { approvalId: record.id, status: "pending" };
  }

  /**
   * One page of pending approvals (newest first), their total, and the `historyLimit` most
   * recently resolved. Reads never write: an approval past its expiry is shown as expired
   * (in history) as of now, and the expiry sweep persists it later, so a locked database
   * cannot fail a read.
   */
  async list(page: { historyLimit: number; pendingLimit: number; pendingOffset: number }): Promise<ApprovalList> {
    const now = this.now();
    const { store } = this.deps;
    return {
      pending: (await store.pendingPage(now, page.pendingLimit, page.pendingOffset)).map(toApprovalSummary),
      pendingTotal: await store.pendingCount(now),
      history: (await store.history(page.historyLimit, now)).map((row) => toApprovalSummary(asOf(row, now))),
    };
  }

  /** The whole approval, payload and result included, as of now (reads only, like {@link list}). */
  async get(id: string): Promise<ApprovalRecord> {
    const row = await this.deps.store.get(id);
    if (!row) throw approvalErrors.APPROVAL_NOT_FOUND({ id });
    return toApprovalRecord(asOf(row, this.now()));
  }

  /**
   * Decides a pending approval. Refuses agents (403), deciders that are neither the owner nor
   * a configured approver (403 `APPROVAL_DECIDER_NOT_ALLOWED`), the requester (403), unknown ids (404),
   * decided (409 `APPROVAL_ALREADY_RESOLVED`) and expired (409 `APPROVAL_EXPIRED`) approvals.
   * Approving a gated action then runs its executor once and records the outcome; the
   * returned record includes it.
   */
  async decide(id: string, decision: Decision): Promise<ApprovalRecord> {
    if (decision.agentId) throw approvalErrors.APPROVAL_AGENT_FORBIDDEN();
    // Stored as the configured spelling: every later comparison and report names the same human.
    const named = decision.decidedBy ?? this.deps.owner;
    const decidedBy = (this.deciders ??= new Deciders(this.deps.owner, this.deps.approvers)).find(named);
    if (decidedBy === undefined) throw approvalErrors.APPROVAL_DECIDER_NOT_ALLOWED({ decidedBy: named });
    await this.sweepExpired();
    const now = this.now();
    const { store } = this.deps;
    // The checks only choose the refusal; the transition itself is conditional, so a row
    // decided meanwhile makes it lose and the re-read row says why.
    const row = await store.get(id);
    if (!row) throw approvalErrors.APPROVAL_NOT_FOUND({ id });
    this.assertPending(row);
    if (personKey(decidedBy) === personKey(row.requestedBy)) throw approvalErrors.APPROVAL_SELF_DECISION({ decidedBy });
    const approving = decision.status === "approved";
    if (approving && row.gated && !this.deps.gate.action(row.command ?? "")) {
      throw approvalErrors.APPROVAL_EXECUTOR_UNAVAILABLE({ kind: row.command });
    }
    const won = await store.transition(
      { id, status: decision.status, reason: decision.reason ?? null, decidedBy, resolvedAt: now, startExecution: approving && row.gated },
      now,
    );
    const decided = won ?? (await store.get(id))!;
    if (!won) this.assertPending(decided);
    this.deps.reports.decided(toApprovalRecord(decided));
    if (decided.status !== "approved" || !decided.gated) return toApprovalRecord(decided);
    return this.execute(decided, decidedBy);
  }

  /** Records an outcome reached elsewhere on a pending approval; never runs its executor. */
  async closeExternally(id: string, outcome: ExternalOutcome): Promise<ApprovalRecord> {
    const now = this.now();
    const won = await this.deps.store.transition({ id, status: outcome.status, reason: outcome.reason, decidedBy: outcome.decidedBy, resolvedAt: now, startExecution: false }, now);
    const row = won ?? (await this.deps.store.get(id));
    if (!row) throw approvalErrors.APPROVAL_NOT_FOUND({ id });
    if (!won) this.assertPending(row);
    const record = toApprovalRecord(row);
    this.deps.reports.decided(record);
    return record;
  }

  /** Rejects expired pending approvals (never runs anything) and reports each. */
  async sweepExpired(): Promise<number> {
    const expired = await this.deps.store.expireDue(this.now());
    for (const row of expired) this.deps.reports.decided(toApprovalRecord(row));
    return expired.length;
  }

  /** At start-up (and in team mode every few seconds): executions a previous or dead process did not finish are marked failed and reported, never re-run; those a live instance is running are left to it. */
  async recoverInterrupted(): Promise<number> {
    const live = (await this.deps.instances?.liveIds()) ?? [];
    const rows = await this.deps.store.failInterrupted(this.now(), live);
    for (const row of rows) this.deps.reports.executionFailed(toApprovalRecord(row));
    return rows.length;
  }

  /**
   * Runs the approved action and always records an outcome, so an approval never stays
   * `running` while the process lives: if working out the outcome throws, a fixed failure
   * is recorded (the thrown error is not logged, since it may quote secret values).
   */
  private async execute(row: StoredApproval, decidedBy: string): Promise<ApprovalRecord> {
    let outcome = OUTCOME_UNKNOWN;
    try {
      outcome = await runExecutor(row, this.deps.gate.action(row.command ?? ""), decidedBy, this.deps.logger, this.deps.redact, this.deps.limits.executionTimeoutMs);
    } catch {
      this.deps.logger.error({ approvalId: row.id, kind: row.command }, "working out a gated action's outcome failed; recorded as failed");
    } finally {
      // The action has run: a lock on this write is waited out here, since the storage
      // guard's re-run of the decision would answer 409 and leave the approval `running`.
      const finished = { status: outcome.status, result: outcome.result, error: outcome.error, at: this.now() };
      await retryWhileLocked(() => this.deps.store.finishExecution(row.id, finished));
    }
    const record = toApprovalRecord((await this.deps.store.get(row.id))!);
    if (record.executionStatus === "succeeded") this.deps.reports.executed(record);
    else this.deps.reports.executionFailed(record);
    return record;
  }

  private assertPending(row: StoredApproval): void {
    if (row.status === "pending") {
      if (row.expiresAt !== null && row.expiresAt <= this.now()) throw approvalErrors.APPROVAL_EXPIRED({ id: row.id, expiresAt: row.expiresAt });
      return;
    }
    if (isExpired(row)) throw approvalErrors.APPROVAL_EXPIRED({ id: row.id, expiresAt: row.expiresAt });
    throw approvalErrors.APPROVAL_ALREADY_RESOLVED({ id: row.id, status: row.status });
  }

  /** Inserts a pending approval within the requester's cap (429 `APPROVAL_PENDING_LIMIT` over it) and reports it. */
  private async insert(fields: Omit<NewApprovalRow, "id" | "createdAt">): Promise<ApprovalRecord> {
    const requesterKey = personKey(fields.requestedBy);
    if (!requesterKey) {
      throw validationFailed("approval request", [{ path: "requestedBy", reason: "must contain a visible character" }]);
    }
    const now = this.now();
    const row: NewApprovalRow = { id: randomUUID(), createdAt: now, ...fields };
    const maxPending = this.deps.limits.maxPendingPerRequester;
    if (!(await this.deps.store.insertWithinCap(row, { requesterKey, maxPending, now }))) {
      throw approvalErrors.APPROVAL_PENDING_LIMIT({ requestedBy: fields.requestedBy, limit: maxPending });
    }
    const record = toApprovalRecord((await this.deps.store.get(row.id))!);
    this.deps.reports.created(record);
    return record;
  }

  private serialise(payload: unknown): string {
    let text: string | undefined;
    try {
      text = JSON.stringify(payload);
    } catch (error) {
      throw approvalErrors.APPROVAL_PAYLOAD_INVALID({ reason: (error as Error).message });
    }
    if (text === undefined) throw approvalErrors.APPROVAL_PAYLOAD_INVALID({ reason: "it has no JSON form" });
    const bytes = Buffer.byteLength(text, "utf8");
    const limit = this.deps.limits.maxPayloadBytes;
    if (bytes > limit) throw approvalErrors.APPROVAL_PAYLOAD_TOO_LARGE({ bytes, limit });
    return text;
  }

  /** An expiry must lie in the future: an approval that could never be approved is a client mistake. */
  private futureExpiry(expiresAt: string | undefined): string | null {
    if (expiresAt === undefined) return null;
    if (expiresAt <= this.now()) {
      throw validationFailed("approval request", [{ path: "expiresAt", reason: "must be a valid instant in the future" }]);
    }
    return expiresAt;
  }
}
