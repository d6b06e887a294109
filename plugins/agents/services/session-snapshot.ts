import type { GatewayClient, GatewaySessionRow, Logger } from "@muster/plugin";
import { RETRY_FIRST_MS, RetrySoon } from "./retry-soon.ts";

export interface AgentSessions {
  /** Newest activity over the agent's sessions (epoch ms), or null when none carries a time. */
  lastActivityMs: number | null;
  sessionCount: number;
  /** The model of the most recent session. */
  model: string | null;
}

/** One cached session row: its agent, newest activity, and the model it runs on. */
interface SessionEntry {
  agentId: string;
  at: number | null;
  model: string | null;
  /** `modelProvider/model` (the name the price table is matched with), or the bare model without a provider. */
  fullModel: string | null;
}

const PAGE = 500;
/** A runaway gateway cannot make one refresh read forever. */
const MAX_ROWS = 100_000;

const epochMs = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null);
/** `agent:<agentId>:<rest>` keys name their agent. */
const agentOf = (row: GatewaySessionRow): string | null =>
  typeof row.agentId === "string" && row.agentId ? row.agentId : /^agent:([^:]+):/.exec(row.key ?? "")?.[1] ?? null;
const fullModelOf = (row: GatewaySessionRow): string | null => {
  if (typeof row.model !== "string" || !row.model) return null;
  const provider = typeof row.modelProvider === "string" && row.modelProvider ? row.modelProvider : null;
  return provider && !row.model.startsWith(`${provider}/`) ? `${provider}/${row.model}` : row.model;
};
const activityOf = (row: GatewaySessionRow): number | null => {
  const times = [epochMs(row.updatedAt), epochMs(row.lastActivityAt), epochMs(row.lastInteractionAt)].filter((t): t is number => t !== null);
  return times.length ? Math.max(...times) : null;
};

/**
 * A cached per-agent summary of the gateway's sessions, so agent health never asks the
 * gateway per request: re-read in full on (re)connection, every `refreshMs`, and (coalesced)
 * on `sessions.changed` events; events carrying the session row are applied at once.
 */
export class SessionSnapshot {
  private rows = new Map<string, SessionEntry>();
  private byAgent = new Map<string, AgentSessions>();
  /** Bumped on every change, so derived views know when to recompute. */
  version = 0;
  private refreshing: Promise<void> | undefined;
  private again = false;
  private coalesceTimer: NodeJS.Timeout | undefined;
  private readonly deps: { gateway: GatewayClient; logger: Logger; refreshMs: number; coalesceMs: number };
  private readonly retry: RetrySoon;
  constructor(deps: { gateway: GatewayClient; logger: Logger; refreshMs: number; coalesceMs: number }) {
    this.deps = deps;
    this.retry = new RetrySoon({ firstMs: RETRY_FIRST_MS, maxMs: deps.refreshMs, retry: () => void this.refresh() });
  }

  /** Starts listening and refreshing; returns the function that stops it. */
  start(): () => void {
    const offState = this.deps.gateway.onState((status) => {
      if (status.state === "connected") void this.refresh();
    });
    const offChanged = this.deps.gateway.on("sessions.changed", (event) => this.onChanged(event));
    const timer = setInterval(() => void this.refresh(), this.deps.refreshMs);
    timer.unref();
    return () => {
      offState();
      offChanged();
      clearInterval(timer);
      clearTimeout(this.coalesceTimer);
      this.retry.stop();
    };
  }

  get(agentId: string): AgentSessions | undefined {
    return this.byAgent.get(agentId);
  }

  /** The `provider/model` the session runs on, from the cached row; undefined when the key is not cached or has no model. */
  modelOf(sessionKey: string): string | undefined {
    return this.rows.get(sessionKey)?.fullModel ?? undefined;
  }

  /** Every agent id that has sessions. */
  agentIds(): string[] {
    return [...this.byAgent.keys()];
  }

  /** Re-reads every page of `sessions.list`; concurrent callers share one read, and a request during it causes one more. */
  refresh(): Promise<void> {
    if (this.deps.gateway.status().state !== "connected") return Promise.resolve();
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = this.readAll()
      .then(() => this.retry.succeeded())
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error }, "sessions.list failed; keeping the cached sessions and reading them again soon");
        this.retry.failed();
      })
      .finally(() => {
        this.refreshing = undefined;
        if (this.again) {
          this.again = false;
          void this.refresh();
        }
      });
    return this.refreshing;
  }

  private async readAll(): Promise<void> {
    const rows = new Map<string, SessionEntry>();
    for (let offset = 0; offset < MAX_ROWS; ) {
      const page = await this.deps.gateway.call("sessions.list", { offset, limit: PAGE }, { timeoutMs: 10_000 });
      const sessions = Array.isArray(page?.sessions) ? page.sessions : [];
      for (const row of sessions) this.addRow(rows, row);
      const next = typeof page?.nextOffset === "number" ? page.nextOffset : offset + sessions.length;
      if (!page?.hasMore || sessions.length === 0 || next <= offset) break;
      offset = next;
    }
    this.rows = rows;
    this.rebuild();
  }

  private addRow(rows: Map<string, SessionEntry>, row: GatewaySessionRow): void {
    if (typeof row?.key !== "string") return;
    const agentId = agentOf(row);
    if (!agentId) return;
    rows.set(row.key, { agentId, at: activityOf(row), model: typeof row.model === "string" ? row.model : null, fullModel: fullModelOf(row) });
  }

  private onChanged(event: { sessionKey?: string; session?: GatewaySessionRow }): void {
    if (event?.session && typeof event.session.key === "string") {
      this.addRow(this.rows, event.session);
      this.rebuild();
      return;
    }
    // Without the row (a deletion, a reset) the whole list is re-read, at most once per interval.
    if (this.coalesceTimer) return;
    this.coalesceTimer = setTimeout(() => {
      this.coalesceTimer = undefined;
      void this.refresh();
    }, this.deps.coalesceMs);
    this.coalesceTimer.unref();
  }

  private rebuild(): void {
    const byAgent = new Map<string, AgentSessions & { newest: number }>();
    for (const { agentId, at, model } of this.rows.values()) {
      const entry = byAgent.get(agentId) ?? { lastActivityMs: null, sessionCount: 0, model: null, newest: -1 };
      entry.sessionCount += 1;
      if (at !== null && (entry.lastActivityMs === null || at > entry.lastActivityMs)) entry.lastActivityMs = at;
      if ((at ?? 0) >= entry.newest) {
        entry.newest = at ?? 0;
        entry.model = model ?? entry.model;
      }
      byAgent.set(agentId, entry);
    }
    this.byAgent = new Map([...byAgent].map(([id, { newest: _newest, ...entry }]) => [id, entry]));
    this.version += 1;
  }
}
