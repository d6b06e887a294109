// Gathers what GET /metrics reports: the host's own families (request counts and latencies
// by route template, gateway state, process memory) and the families other plugins
// contribute through METRIC_SOURCES (SSE clients, search index size, pending approvals...).
// This plugin imports none of them: an absent plugin simply contributes nothing.
import type { Contributed, GatewayClient, GatewayState, HostInfo, HttpMetrics, Logger } from "@muster/plugin";
import type { MetricSource, MetricsExporter } from "../tokens.ts";
import { formatValue, renderExposition, type MetricFamily } from "./exposition.ts";

const GATEWAY_STATES: GatewayState[] = ["connecting", "connected", "down", "unauthorized", "disabled"];

export interface MetricsExporterDeps {
  http: HttpMetrics;
  gateway: GatewayClient;
  info: HostInfo;
  logger: Logger;
  /** Contributed sources, in plugin start order. */
  sources: readonly Contributed<MetricSource>[];
}

export class PrometheusExporter implements MetricsExporter {
  private readonly deps: MetricsExporterDeps;
  constructor(deps: MetricsExporterDeps) {
    this.deps = deps;
  }

  async render(): Promise<string> {
    return renderExposition([
      ...this.httpFamilies(),
      ...this.gatewayFamilies(),
      ...(await this.contributedFamilies()),
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

  /** Every source's families, in plugin order; collected together so one slow source does not hold up the others. */
  private async contributedFamilies(): Promise<MetricFamily[]> {
    const collected = await Promise.all(this.deps.sources.map(({ plugin, value }) => this.collect(plugin, value)));
    return collected.flat();
  }

  private async collect(plugin: string, source: MetricSource): Promise<MetricFamily[]> {
    try {
      return await source.collect();
    } catch (error) {
      // A scrape must still answer while a source fails (the database is busy): its families are left out this time.
      this.deps.logger.warn({ err: error, source: plugin }, "metric source not available for /metrics");
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
