import type { GatewayClient } from "@muster/plugin";
import type { GatewayConfig } from "../config.ts";
import type { GatewayProxy } from "../tokens.ts";
import { toCronJob, toSessionSummary, type GatewayCronJob, type GatewaySessionSummary } from "./normalise.ts";

interface Page<T> {
  rows: T[];
  hasMore?: boolean;
  nextOffset?: number | null;
}

/**
 * Reads whole lists from the gateway, page by page. Gateway failures propagate as the
 * client's coded errors (503 `GATEWAY_UNAVAILABLE`/`GATEWAY_UNAUTHORIZED`, 502
 * `GATEWAY_ERROR`, 504 `GATEWAY_TIMEOUT`), which the error boundary answers as they are.
 */
export class GatewayProxyService implements GatewayProxy {
  private readonly deps: { gateway: GatewayClient; config: GatewayConfig };
  constructor(deps: { gateway: GatewayClient; config: GatewayConfig }) {
    this.deps = deps;
  }

  async sessions(): Promise<{ sessions: GatewaySessionSummary[]; truncated: boolean }> {
    const { rows, truncated } = await this.pageThrough(async (offset, limit) => {
      const page = await this.deps.gateway.call("sessions.list", { offset, limit }, { timeoutMs: this.deps.config.callTimeoutMs });
      return { rows: Array.isArray(page?.sessions) ? page.sessions : [], hasMore: page?.hasMore, nextOffset: page?.nextOffset };
    });
    return { sessions: rows.flatMap((row) => toSessionSummary(row) ?? []), truncated };
  }

  async crons(): Promise<{ jobs: GatewayCronJob[]; truncated: boolean }> {
    const { rows, truncated } = await this.pageThrough(async (offset, limit) => {
      const page = await this.deps.gateway.call("cron.list", { includeDisabled: true, offset, limit }, { timeoutMs: this.deps.config.callTimeoutMs });
      return { rows: Array.isArray(page?.jobs) ? page.jobs : [], hasMore: page?.hasMore, nextOffset: page?.nextOffset };
    });
    return { jobs: rows.flatMap((job) => toCronJob(job) ?? []), truncated };
  }

  /**
   * Follows `nextOffset` while the gateway says `hasMore`, up to `maxRows`. A page that
   * does not move forward (same or smaller offset, or no rows) ends the walk, so a gateway
   * answering inconsistently cannot keep Muster looping.
   */
  private async pageThrough<T>(fetchPage: (offset: number, limit: number) => Promise<Page<T>>): Promise<{ rows: T[]; truncated: boolean }> {
    const { pageSize, maxRows } = this.deps.config;
    const rows: T[] = [];
    let offset = 0;
    for (;;) {
      const page = await fetchPage(offset, Math.min(pageSize, maxRows - rows.length));
      rows.push(...page.rows);
      if (rows.length >= maxRows) return { rows: rows.slice(0, maxRows), truncated: page.hasMore === true || rows.length > maxRows };
      const next = typeof page.nextOffset === "number" ? page.nextOffset : offset + page.rows.length;
      if (page.hasMore !== true || page.rows.length === 0 || next <= offset) return { rows, truncated: false };
      offset = next;
    }
  }
}
