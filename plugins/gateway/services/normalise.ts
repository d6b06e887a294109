// Maps the gateway's rows (reference §2.7, §2.8) to the shapes Muster answers with. The
// gateway sends far more fields than its schema names and some are optional, so each field
// is read defensively: a missing or mistyped value becomes null, never an error.
import type { GatewaySessionRow } from "@muster/plugin";

/** Spec: Gateway session. `lastActivity` is epoch ms, as the spec gives it. */
export interface GatewaySessionSummary {
  key: string;
  agentId: string | null;
  lastActivity: number | null;
  model: string | null;
  /** With several gateways (DESIGN §16): the gateway the session is on. */
  gateway?: string;
}

/** The gateway's job as it returned it, with Muster's normalised fields added (DESIGN §14.1). */
export type GatewayCronJob = Record<string, unknown> & {
  id: string;
  name: string | null;
  agentId: string | null;
  /** The cron expression, or null for `every`/`at`/other schedules (see `schedule`). */
  cron: string | null;
  timezone: string | null;
  enabled: boolean;
  /** ISO 8601 UTC, or null. */
  nextRun: string | null;
  lastRun: string | null;
};

type Json = Record<string, unknown>;
const isMap = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);
const epochMs = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.trunc(v) : null);
const iso = (v: unknown): string | null => {
  const ms = epochMs(v);
  return ms === null || ms > 8.64e15 ? null : new Date(ms).toISOString();
};

/** `agent:<agentId>:<name>` → `agentId` (session keys name their owner). */
function agentFromKey(key: string): string | null {
  const match = /^agent:([^:]+):/.exec(key);
  return match ? match[1]! : null;
}

/** One `sessions.list` row → spec: Gateway session; null for a row without a key. */
export function toSessionSummary(row: GatewaySessionRow): GatewaySessionSummary | null {
  if (!isMap(row)) return null;
  const key = str(row.key);
  if (key === null) return null;
  return {
    key,
    agentId: str(row.agentId) ?? agentFromKey(key),
    // updatedAt is always present on the real gateway; the others are optional (reference §2.7).
    lastActivity: epochMs(row.updatedAt) ?? epochMs(row.lastActivityAt) ?? epochMs(row.lastInteractionAt),
    model: str(row.model),
    ...(typeof row.gateway === "string" ? { gateway: row.gateway } : {}),
  };
}

/** One `cron.list` job → the job with the normalised fields added; null for a job without an id. */
export function toCronJob(job: Json): GatewayCronJob | null {
  if (!isMap(job)) return null;
  const id = str(job.id);
  if (id === null) return null;
  const schedule = isMap(job.schedule) ? job.schedule : {};
  const state = isMap(job.state) ? job.state : {};
  return {
    ...job,
    id,
    name: str(job.name) ?? str(job.displayName),
    agentId: str(job.agentId) ?? str(job.effectiveAgentId),
    cron: schedule.kind === "cron" ? str(schedule.expr) : null,
    timezone: str(schedule.tz),
    enabled: job.enabled !== false,
    nextRun: iso(state.nextRunAtMs ?? job.nextRunAtMs),
    lastRun: iso(state.lastRunAtMs ?? job.lastRunAtMs),
  };
}
