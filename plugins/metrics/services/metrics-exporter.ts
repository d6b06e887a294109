// Gathers what GET /metrics reports from the host and the plugins that are present: request
// counts and latencies by route template, SSE clients, gateway state, search index size,
// the approval queue's length, process memory. An absent plugin's families are left out.
import type { GatewayClient, GatewayState, HostInfo, HttpMetrics, Logger } from "@muster/plugin";
import type { ApprovalQueue } from "../../approvals/tokens.ts";
import type { WorkspaceSearch } from "../../search/tokens.ts";
import type { EventStream } from "../../stream/tokens.ts";
import type { MetricsExporter } from "../tokens.ts";
import { formatValue, renderExposition, type MetricFamily } from "./exposition.ts";

const GATEWAY_STATES: GatewayState[] = ["connecting", "connected", "down", "unauthorized", "disabled"];

export interface MetricsExporterDeps {
  http: HttpMetrics;
  gateway: GatewayClient;
  info: HostInfo;
  logger: Logger;
  stream: EventStream | undefined;
  search: WorkspaceSearch | undefined;
  approvals: ApprovalQueue | undefined;
}

export class PrometheusExporter implements MetricsExporter {
  private readonly deps: MetricsExporterDeps;
  constructor(deps: MetricsExporterDeps) {
    this.deps = deps;
  }

  async render(): Promise<string> {
    return renderExposition([
      ...this.httpFamilies(),
      ...this.streamFamilies(),
      ...this.gatewayFamilies(),
      ...this.searchFamilies(),
      ...(await this.approvalFamilies()),
      ...this.processFamilies(),
    ]);
  }

  private httpFamilies(): MetricFamily[] {
    const { bucketBounds, requests, durations } = this.deps.http.snapshot();
    return [
      {
        name: "muster_http_requests_total",
        help: "HTTP requests answered, by method, route template and status.",
        type: "counter",
        samples: requests.map((r) => ({ labels: { method: r.method, route: r.route, status: String(r.status) }, value: r.count })),
      },
      {
        name: "muster_http_request_duration_seconds",
        help: "Time to answer an HTTP request (for a stream: until its headers were sent), by method and route template.",
        type: "histogram",
        samples: durations.flatMap((d) => {
          const labels = { method: d.method, route: d.route };
          return [
            ...bucketBounds.map((bound, i) => ({ suffix: "_bucket", labels: { ...labels, le: formatValue(bound) }, value: d.cumulativeCounts[i]! })),
            { suffix: "_bucket", labels: { ...labels, le: "+Inf" }, value: d.count },
            { suffix: "_sum", labels, value: d.sumSeconds },
            { suffix: "_count", labels, value: d.count },
          ];
        }),
      },
    ];
  }

  private streamFamilies(): MetricFamily[] {
    if (!this.deps.stream) return [];
    const stats = this.deps.stream.stats();
    return [
      { name: "muster_sse_clients", help: "Clients connected to the live stream (GET /api/sse).", type: "gauge", samples: [{ value: stats.clients }] },
      { name: "muster_sse_slow_clients_dropped_total", help: "Stream clients disconnected for falling too far behind.", type: "counter", samples: [{ value: stats.droppedSlowClients }] },
    ];
  }

  private gatewayFamilies(): MetricFamily[] {
    const { state } = this.deps.gateway.status();
    return [
      { name: "muster_gateway_up", help: "1 while the OpenClaw gateway connection is established.", type: "gauge", samples: [{ value: state === "connected" ? 1 : 0 }] },
      {
        name: "muster_gateway_state",
        help: "The gateway client's state: 1 for the current one.",
        type: "gauge",
        samples: GATEWAY_STATES.map((s) => ({ labels: { state: s }, value: s === state ? 1 : 0 })),
      },
    ];
  }

  private searchFamilies(): MetricFamily[] {
    if (!this.deps.search) return [];
    const stats = this.deps.search.stats();
    return [
      { name: "muster_search_index_files", help: "Workspace files in the full-text search index.", type: "gauge", samples: [{ value: stats.totalFiles }] },
      { name: "muster_search_index_ready", help: "1 once the search index has loaded.", type: "gauge", samples: [{ value: stats.state === "ready" ? 1 : 0 }] },
    ];
  }

  private async approvalFamilies(): Promise<MetricFamily[]> {
    if (!this.deps.approvals) return [];
    try {
      const { pendingTotal } = await this.deps.approvals.list({ historyLimit: 1, pendingLimit: 1, pendingOffset: 0 });
      return [{ name: "muster_approvals_pending", help: "Approvals waiting for a human decision.", type: "gauge", samples: [{ value: pendingTotal }] }];
    } catch (error) {
      // A scrape must still answer while the database is busy; the family is left out this time.
      this.deps.logger.warn({ err: error }, "approval queue length not available for /metrics");
      return [];
    }
  }

  private processFamilies(): MetricFamily[] {
    const memory = process.memoryUsage();
    return [
      { name: "process_resident_memory_bytes", help: "Resident memory of the server process.", type: "gauge", samples: [{ value: memory.rss }] },
      { name: "nodejs_heap_used_bytes", help: "V8 heap in use.", type: "gauge", samples: [{ value: memory.heapUsed }] },
      { name: "nodejs_heap_total_bytes", help: "V8 heap allocated.", type: "gauge", samples: [{ value: memory.heapTotal }] },
      { name: "nodejs_external_memory_bytes", help: "Memory of C++ objects bound to JavaScript objects.", type: "gauge", samples: [{ value: memory.external }] },
      { name: "process_start_time_seconds", help: "When the server started, in seconds since the Unix epoch.", type: "gauge", samples: [{ value: this.deps.info.startedAt / 1000 }] },
      { name: "muster_info", help: "The running Muster version.", type: "gauge", samples: [{ labels: { version: this.deps.info.version }, value: 1 }] },
    ];
  }
}
