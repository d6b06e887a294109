import type { GatewayApprovalKind } from "../config.ts";

/** How the gateway names each kind of approval request, and how Muster shows and settles it. */
export interface KindSpec {
  kind: GatewayApprovalKind;
  /** The Muster gated action kind (the approval's `command`). */
  command: string;
  /** The gateway method that settles a request: `{ id, decision: allow-once | allow-always | deny }`. */
  resolveMethod: string;
  /** The gateway method listing pending requests, or null when the gateway has none (system-agent). */
  listMethod: string | null;
}

// From openclaw 2026.9.6 (dist: exec-approval, approval-shared, method-scopes): the
// `system-agent` kind broadcasts `openclaw.approval.*` and is settled with `approval.resolve`.
export const KINDS: readonly KindSpec[] = [
  { kind: "exec", command: "openclaw.exec", resolveMethod: "exec.approval.resolve", listMethod: "exec.approval.list" },
  { kind: "plugin", command: "openclaw.plugin", resolveMethod: "plugin.approval.resolve", listMethod: "plugin.approval.list" },
  { kind: "openclaw", command: "openclaw.approval", resolveMethod: "approval.resolve", listMethod: null },
];

export const kindSpec = (kind: string): KindSpec | undefined => KINDS.find((k) => k.kind === kind);
export const kindOfCommand = (command: string | null): KindSpec | undefined => KINDS.find((k) => k.command === command);

/** A pending request as the gateway sends it (`*.approval.requested` and the list methods). */
export interface GatewayApprovalRequest {
  id: string;
  request: Record<string, unknown> & { command?: string; cwd?: string | null; agentId?: string | null; sessionKey?: string | null };
  createdAtMs?: number;
  expiresAtMs?: number;
}

/** `*.approval.resolved`. */
export interface GatewayApprovalResolved {
  id: string;
  decision: string;
  resolvedBy?: string | null;
}

export const isRequest = (value: unknown): value is GatewayApprovalRequest =>
  typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string" && typeof (value as { request?: unknown }).request === "object" && (value as { request?: unknown }).request !== null;

export const isResolved = (value: unknown): value is GatewayApprovalResolved =>
  typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string" && typeof (value as { decision?: unknown }).decision === "string";
