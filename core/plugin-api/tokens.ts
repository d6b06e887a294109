import { token, type ServiceToken } from "./define-service.ts";
import type { Database, HostInfo, Logger } from "./context.ts";
import type { EventBus } from "./events.ts";
import type { ApprovalGate, GateBackend } from "./gate.ts";
import type { WorkspacePaths, WorkspaceWatch } from "./workspace.ts";
import type { GatewayClient } from "./gateway.ts";
import type { HttpMetrics } from "./http-metrics.ts";
import type { TextRedactor } from "./redaction.ts";
import type { Instances } from "./instances.ts";
import type { RateLimits } from "./rate-limit.ts";

/**
 * Services the host provides, resolved like any plugin's token: list them in a service's
 * `deps` (`deps: { db: hostTokens.db, logger: hostTokens.logger }`). Every plugin may
 * resolve them without declaring anything.
 */
export const hostTokens = {
  /**
   * The database. Resolving it is fine in `register` (DI only); using it before the
   * migrations ran throws, so services touch it from their methods, never their constructor.
   */
  db: token<Database>("host.db"),
  events: token<EventBus>("host.events"),
  /** The resolving plugin's own child logger (`plugin=<id>`). */
  logger: token<Logger>("host.logger"),
  workspace: token<WorkspacePaths>("host.workspace"),
  /** The workspace watcher's initial scan: its state, and a promise of its end (see {@link WorkspaceWatch}). */
  workspaceWatch: token<WorkspaceWatch>("host.workspaceWatch"),
  gate: token<ApprovalGate>("host.gate"),
  /** The OpenClaw gateway client (DESIGN §9); its state says whether calls can succeed. */
  gateway: token<GatewayClient>("host.gateway"),
  /** Host facts: owner, approvers, home, url, credentials. */
  info: token<HostInfo>("host.info"),
  /** The resolving plugin's own validated configuration; type it with {@link configToken}. */
  config: token<Readonly<unknown>>("host.config"),
  /**
   * The Muster processes serving the database: this one's id and the live ones' (one on
   * SQLite; several in team mode), for telling work a dead process left in flight from work
   * another instance is doing (see {@link Instances}). Usable once the database is open.
   */
  instances: token<Instances>("host.instances"),
  /**
   * Rate limiters whose caps hold across every instance (the crew's limits: chat, council,
   * dispatch); in-memory on SQLite, rows in team mode. Usable once the database is open.
   */
  rateLimits: token<RateLimits>("host.rateLimits"),
  /** Request counts and latencies by route template and status (what `GET /metrics` reports). */
  httpMetrics: token<HttpMetrics>("host.httpMetrics"),
  /** Provided by the approvals plugin; lets `ctx.gate.request` create approvals. */
  gateBackend: token<GateBackend>("host.gateBackend"),
  /** Scrubs secret values from free text before it is stored (see redaction.ts); text unchanged without a backend. */
  redaction: token<TextRedactor>("host.redaction"),
  /** Provided by the vault plugin; what `redaction` delegates to. */
  redactionBackend: token<TextRedactor>("host.redactionBackend"),
};

/**
 * `hostTokens.config` typed with the plugin's configuration type.
 *
 * @example
 * deps: { config: configToken<MemoryConfig>() }
 */
export function configToken<C>(): ServiceToken<Readonly<C>> {
  return hostTokens.config as ServiceToken<Readonly<C>>;
}
