import type { Logger } from "pino";
import type { InferEntity, Opt } from "@mikro-orm/core";
import type { SqlEntityManager } from "@mikro-orm/sqlite";
import type BetterSqlite3 from "better-sqlite3";
import type { EventBus } from "./events.ts";
import type { ApprovalGate } from "./gate.ts";
import type { WorkspacePaths } from "./workspace.ts";
import type { ServiceDefinition } from "./define-service.ts";
import type { GatewayClient } from "./gateway.ts";

export type { Logger };

/** The embedded SQLite database. */
export interface Database {
  /**
   * A fresh MikroORM entity manager (its own unit of work), the data path: entity writes
   * (`em.create(...); await em.flush()`) and plain-row reads and updates through the query
   * builder (`em.createQueryBuilder(X).select(...).where(...).execute("all")`: no entity
   * hydration, which costs ~12x on list reads; rows typed {@link EntityRow}). Flushes run
   * without an implicit transaction; never call `em.transactional()`/`em.begin()` (see `sql`).
   */
  em(): SqlEntityManager;
  /**
   * The same better-sqlite3 connection, for what must be one synchronous step, kept inside
   * the plugin's store with a comment saying why: a conditional single-statement change, or
   * an atomic multi-statement change as `sql.transaction(() => { ... })()`, which no other
   * request can interleave with on the shared connection. Always use bound parameters.
   * SQLite only: a change that must also run on PostgreSQL is `atomically` (atomic-step.ts),
   * which keeps this synchronous path on SQLite.
   */
  sql: BetterSqlite3.Database;
  /**
   * The engine behind `em()`: the embedded SQLite (the default), or PostgreSQL in team mode
   * (`DATABASE_URL`, docs/team.md), where `sql` does not exist yet. Absent means SQLite.
   */
  readonly engine?: "sqlite" | "postgresql";
  /**
   * PostgreSQL only (absent on SQLite, where one process serves everything): calls
   * `onNotify(payload)` for every `NOTIFY channel` (`SELECT pg_notify(?, ?)` inside an
   * `atomically` step is delivered at its commit) from any connection to the database, other
   * instances' included. It listens on a connection of its own that reconnects by itself, and
   * calls `onNotify("")` after every (re)connect: what was notified while nobody listened is
   * lost, so a listener reads what it missed from its table then. `channel`: a lower-case
   * identifier, prefixed with the plugin's id.
   */
  listen?(channel: string, onNotify: (payload: string) => void): Promise<DatabaseListener>;
  /**
   * PostgreSQL only (absent on SQLite, where `sql` prepares statements): runs one statement
   * on a pooled connection as a named, server-side prepared statement (`$1`… placeholders),
   * parsed and planned once per connection and name, its rows as the driver reads them.
   * Stores do not call it: they use the kit's `preparedStatement` (prepared-statement.ts),
   * which runs the same statement on either engine.
   */
  runPrepared?(statement: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: Record<string, unknown>[]; changes: number }>;
}

/** A {@link Database.listen} subscription. */
export interface DatabaseListener {
  /** Stops listening and closes its connection. */
  close(): Promise<void>;
}

/** A value as stored: without MikroORM's `Opt` brand (a default) and `undefined` (a nullable column reads as `null`). */
type Stored<V> = Exclude<V extends Opt<infer U> ? U : V, undefined>;

/**
 * A row of an entity's table as the query builder returns it (`execute("all")`, mapped:
 * booleans as booleans): a plain object with every column, never an entity. Derive row
 * types from the entity with it: `type ApprovalRow = EntityRow<typeof Approval>`.
 */
export type EntityRow<Schema> = { -readonly [K in keyof InferEntity<Schema> as K extends string ? K : never]-?: Stored<InferEntity<Schema>[K]> };

/** Host-level facts a plugin may read. */
export interface HostInfo {
  /** The plugin-API version the host implements. */
  version: string;
  /** `MUSTER_HOME`, the data directory. */
  home: string;
  /** The configured owner (default approver and decider). */
  owner: string;
  /** The other configured humans who may decide approvals (`MUSTER_APPROVERS`); frozen. */
  approvers: readonly string[];
  /** Epoch ms when the host started. */
  startedAt: number;
  /** The host's base URL once listening (`http://127.0.0.1:3333`). */
  url(): string;
  /**
   * Reads a credential from the host configuration (`VAULT_KEY`, `GATEWAY_TOKEN`), or null
   * when unset. A function rather than a field so that logging or serialising `ctx.host`
   * never prints it. Never log, return or publish the value.
   */
  credential(name: HostCredential): string | null;
}

/** Credentials of the host configuration a plugin may read through `ctx.host.credential`. */
export type HostCredential = "vaultKey" | "gatewayToken";

/**
 * What a plugin receives in `register`, in a bare-function `routes`/`onStart`/`onStop`, and as
 * the last argument of a declared one (`defineRoutes`, `defineHook`): its identity and
 * configuration, the host facilities below, and `provide` to register its services.
 * Services, the database and other plugins' services are never reached through it: a service,
 * routes, a hook, a gated action or a contribution lists them in its `deps` (`hostTokens.db`,
 * `configToken<C>()`, a token of its own plugin or of one in `dependsOn`) or `optionalDeps`
 * (`undefined` when the providing plugin is absent), and the host checks every such
 * declaration when it starts. Gated action kinds are declared in the definition's `gatedActions`.
 */
export interface PluginContext<C = unknown> {
  /** The plugin id. */
  readonly id: string;
  /** The plugin's resolved, frozen configuration (the same as `configToken<C>()` in deps). */
  readonly config: Readonly<C>;
  /** Logger with `plugin=<id>`; log fields, never interpolated values or secrets. */
  readonly logger: Logger;
  readonly events: EventBus;
  /** Requests approvals for declared kinds (`gate.request`); kinds come from `gatedActions`. */
  readonly gate: ApprovalGate;
  readonly workspace: WorkspacePaths;
  readonly host: HostInfo;
  /**
   * The OpenClaw gateway client (DESIGN §9), the same as `hostTokens.gateway` in deps.
   * Calls fail fast while it is not connected; `status()`/`onState` say whether it is.
   */
  readonly gateway: GatewayClient;
  /** Registers a service in the host container (only in `register`). */
  provide<T>(definition: ServiceDefinition<T, any, any>): void;
  lifecycle: {
    /** Runs `fn` at shutdown, in reverse start order, before the database closes. */
    onStop(fn: () => void | Promise<void>): void;
    /**
     * Runs `fn` once the host lets every request through (after every plugin's onStart), or
     * at once when it already does: for warm-ups no request needs first (probing an optional
     * system tool, preparing caches). The start does not wait for it; a failure is logged.
     * A request may come before it ran, so whatever it prepares must also be reachable on
     * demand.
     */
    onServing(fn: () => void | Promise<void>): void;
  };
}
