// The host: loads configuration and plugins, checks the plugin graph before any plugin
// code runs, wires DI, the database and HTTP, and runs the plugin lifecycle.
import "reflect-metadata";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { setImmediate as turnOfTheLoop } from "node:timers/promises";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import type { EntitySchema } from "@mikro-orm/core";
import type { PluginDefinition } from "./plugin-api/define-plugin.ts";
import type { PluginContext, HostInfo, Database } from "./plugin-api/context.ts";
import type { WorkspacePaths, WorkspaceWatch } from "./plugin-api/workspace.ts";
import { PLUGIN_API_VERSION } from "./plugin-api/index.ts";
import { hostTokens } from "./plugin-api/tokens.ts";
import { hostPoints } from "./plugin-api/host-points.ts";
import { hostCredential, loadConfig, PARSED_ONCE, type ConfigOverrides, type MusterConfig } from "./internal/config.ts";
import { createLogger } from "./internal/logger.ts";
import { orderPlugins } from "./internal/plugin-graph.ts";
import { loadThirdPartyPlugin } from "./internal/plugin-loader.ts";
import { ServiceContainer, type Requester } from "./internal/container.ts";
import { collectContributions, provideContributions, requesterOf, staticContributions, type CollectedContributions } from "./internal/contributions.ts";
import { createEventBus } from "./internal/event-bus.ts";
import { createGateRegistry, publicGate } from "./internal/gate-registry.ts";
import { createRedaction } from "./internal/redaction.ts";
import { createSessionToken, type SessionToken } from "./internal/session-token.ts";
import { acquireInstanceLock, type InstanceLock } from "./internal/instance-lock.ts";
import { startInstanceRegistry, type InstanceRegistry } from "./internal/instance-registry.ts";
import { createRateLimits } from "./internal/shared-rate-limits.ts";
import type { RateLimits } from "./plugin-api/rate-limit.ts";
import { listenError, startErrors } from "./internal/start-errors.ts";
import { summarizeDetails, zodIssueDetails } from "./plugin-api/zod-issues.ts";
import { packageVersion } from "./internal/package-version.ts";
import { ensurePrivateFiles } from "./internal/private-files.ts";
import { createBrowserLogin, type BrowserLogin, type LoginLink } from "./internal/http/browser-login.ts";
import { teamSessions } from "./internal/team-secrets.ts";
import { clientErrorHandler } from "./internal/http/client-error.ts";
import { originPolicy, sessionCheck } from "./internal/http/security.ts";
import { createWorkspacePaths, resolveWorkspaceRoot } from "./internal/workspace/paths.ts";
import { scaffoldWorkspace } from "./internal/workspace/scaffold.ts";
import { startWorkspaceWatcher, type WorkspaceWatcher } from "./internal/workspace/watcher.ts";
import { migrate, openDatabase, type OpenedDatabase } from "./internal/database.ts";
import { RouteTable } from "./internal/http/plugin-router.ts";
import { storageGuard } from "./internal/http/storage-guard.ts";
import { startGate, type StartGate } from "./internal/http/start-gate.ts";
import { createApp } from "./internal/http/app.ts";
import { createRequestMetrics } from "./internal/http/request-metrics.ts";
import { HOST_PATHS, healthAnswer, mountHostRoutes, type HostRouteDeps, type PluginSummary } from "./internal/host-routes.ts";
import { mountMcpRoute } from "./internal/mcp/mcp-route.ts";
import { checkServedTools } from "./internal/mcp/tools.ts";
import { buildOpenApi } from "./internal/http/openapi.ts";
import { createGatewayClient } from "./internal/gateway/client.ts";
import { gatewayLink } from "./internal/gateway/leased-link.ts";
import { createGatewayLinks } from "./internal/gateway/links.ts";
import { createGatewayRouter } from "./internal/gateway/router.ts";
import { createStartupPhases } from "./internal/startup-phases.ts";

export interface HostOptions {
  /** Environment to read configuration from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Values that win over environment and file (tests: `{ port: 0, home: tmp }`). */
  config?: ConfigOverrides;
  /**
   * The plugins Muster is assembled from (the CLI passes the built-ins); the host itself
   * knows no feature, so without any it serves only its own routes. A function loads them
   * when the start needs them: on SQLite after the server listens, so that their modules
   * (a third of the start-up bundle, and every plugin's schemas built as it loads) are not
   * on the path to the first health answer (issue 26).
   */
  plugins?: PluginDefinition[] | (() => Promise<PluginDefinition[]>);
  /** Added after the built-ins (test plugins). */
  extraPlugins?: PluginDefinition[];
  /** Use this logger instead of creating one. */
  logger?: Logger;
}

export interface Host {
  start(): Promise<void>;
  /** Idempotent graceful shutdown. */
  stop(): Promise<void>;
  /** Base URL once started (`http://127.0.0.1:3333`). */
  readonly url: string;
  readonly config: MusterConfig;
  readonly sessionToken: string;
  readonly logger: Logger;
  /** A new one-time browser login link (`/login?code=…`, 10 minutes); the CLI prints one at start. */
  loginLink(): LoginLink;
  /**
   * `muster migrate`: applies the enabled plugins' pending migrations without serving, then
   * closes the database. Takes the home's instance lock like `start` (so never under a
   * running server of this home). Returns the applied ids, in order.
   */
  migrate(): Promise<string[]>;
}

/**
 * The owner: the configuration's, else the first name a plugin's owner source gives (the
 * agents plugin reads the organisation file), else "owner". The host itself reads no feature's files.
 */
function resolveOwner(config: MusterConfig, contributions: CollectedContributions, workspaceRoot: string): string {
  if (config.owner) return config.owner;
  for (const { value } of staticContributions(contributions, hostPoints.ownerSources)) {
    const owner = value.owner(workspaceRoot)?.trim();
    if (owner) return owner;
  }
  return "owner";
}

/** Collects the plugin list: the given ones (less disabled ones), extras, then configured packages. */
async function collectPlugins(options: HostOptions, config: MusterConfig): Promise<{ definition: PluginDefinition; source: string }[]> {
  const given = typeof options.plugins === "function" ? await options.plugins() : (options.plugins ?? []);
  const builtIns = given.filter((p) => !config.disabledPlugins.includes(p.id));
  const list = [
    ...builtIns.map((definition) => ({ definition, source: "built-in" })),
    ...(options.extraPlugins ?? []).map((definition) => ({ definition, source: "extra" })),
  ];
  for (const name of config.plugins) list.push(await loadThirdPartyPlugin(name, config.home));
  return list;
}

export function createHost(options: HostOptions = {}): Host {
  const phases = createStartupPhases("process start to host (modules, configuration)");
  const config = loadConfig(options.env ?? process.env, options.config);
  const logger = options.logger ?? createLogger(config.logLevel);
  // In team mode (DATABASE_URL) one instance holds each link and the others go through it
  // (leased-link.ts); one link per configured gateway, and with one the router is that link
  // itself (DESIGN §16).
  const team = config.databaseUrl ? () => ({ db: db!, instances: instances! }) : null;
  const gatewayLinks = createGatewayLinks(config, (link) => {
    const linkLogger = logger.child(config.gateways.length > 1 ? { component: "gateway", gateway: link.name } : { component: "gateway" });
    const connect = () =>
      createGatewayClient({
        name: link.name,
        url: link.url,
        token: link.token,
        scopes: link.scopes,
        requestTimeoutMs: config.gatewayRequestTimeoutMs,
        deviceIdentity: link.deviceIdentity,
        home: config.home,
        version: packageVersion,
        timings: config.gatewayTimings,
        logger: linkLogger,
      });
    return gatewayLink({ name: link.name, connect, team, requestTimeoutMs: config.gatewayRequestTimeoutMs, logger: linkLogger });
  });
  const gateway = createGatewayRouter(gatewayLinks, logger.child({ component: "gateway" }));
  const startedAt = Date.now();
  let server: Server | undefined;
  let db: OpenedDatabase | undefined;
  let watcher: WorkspaceWatcher | undefined;
  /** Holds requests other than /api/health while the plugins start (listening begins before their onStart). */
  let startup: StartGate | undefined;
  // What plugins see of the watcher (created in start(), after their onStart).
  let endScan: (done: boolean) => void = () => undefined;
  const scanEnded = new Promise<boolean>((resolve) => (endScan = resolve));
  let markTaken: (watching: boolean) => void = () => undefined;
  const watchingStarted = new Promise<boolean>((resolve) => (markTaken = resolve));
  const workspaceWatch: WorkspaceWatch = {
    get state() {
      return watcher?.state ?? "scanning";
    },
    watching: () => watchingStarted,
    scanned: () => scanEnded,
  };
  let port = config.port;
  /** The plugins' entities, known once they are loaded (MikroORM is built over them after that). */
  let entities: EntitySchema<any, any>[] = [];
  let started: PluginDefinition[] = [];
  let sources = new Map<string, string>();
  const stopHooks: (() => void | Promise<void>)[] = [];
  /** `ctx.lifecycle.onServing` hooks, run once requests are let through (undefined from then on: a later one runs at once). */
  let servingHooks: { plugin: string; fn: () => void | Promise<void> }[] | undefined = [];
  const contexts = new Map<string, PluginContext>();
  const requesters = new Map<string, Requester>();
  const services = new ServiceContainer();
  const events = createEventBus(logger);
  const gate = createGateRegistry(() => (services.has(hostTokens.gateBackend) ? services.resolve(hostTokens.gateBackend) : undefined));
  /** What plugins receive as `ctx.gate` and `hostTokens.gate`: requesting, not defining. */
  const pluginGate = publicGate(gate);
  const redaction = createRedaction(() => (services.has(hostTokens.redactionBackend) ? services.resolve(hostTokens.redactionBackend) : undefined));
  // Both are taken in start(): the lock first, so a second start on this home changes nothing.
  let lock: InstanceLock | undefined;
  let instances: InstanceRegistry | undefined;
  let rateLimits: RateLimits | undefined;
  let currentSession: SessionToken | undefined;
  // In team mode replaced at start by the deployment's (team-secrets.ts), before any route holds it.
  let login: BrowserLogin = createBrowserLogin();
  const httpMetrics = createRequestMetrics();
  let stopping: Promise<void> | undefined;
  const url = () => `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;

  const host: Host = {
    get url() {
      return url();
    },
    config,
    get sessionToken() {
      if (!currentSession) throw new Error("The session token exists once the host has started");
      return currentSession.value;
    },
    logger,
    loginLink: () => login.issue(url()),
    start: () => startLocked(),
    stop: () => lifecycle.stop(),
    migrate: () => migrateLocked(),
  };

  async function migrateLocked(): Promise<string[]> {
    lock = acquireInstanceLock(config.home, packageVersion);
    try {
      const { applied } = await openAndMigrate(await collectAndOrder());
      return applied;
    } finally {
      await db?.close();
      lock.release();
    }
  }

  async function startLocked(): Promise<void> {
    lock = acquireInstanceLock(config.home, packageVersion);
    try {
      await lifecycle.start();
    } catch (error) {
      // A start that fails half way (port in use, a failing migration) leaves nothing
      // behind: started plugins stop, the database closes, the lock goes.
      await lifecycle.stop();
      throw error;
    }
  }

  /** The plugin list, checked as a graph and put in start order. */
  async function collectAndOrder(): Promise<PluginDefinition[]> {
    const collected = await collectPlugins(options, config);
    sources = new Map(collected.map((c) => [c.definition.id, c.source]));
    return orderPlugins(collected.map((c) => c.definition), PLUGIN_API_VERSION, HOST_PATHS);
  }

  /** The workspace, scaffolded on first start when configured. */
  function prepareWorkspace(): WorkspacePaths {
    const workspaceRoot = resolveWorkspaceRoot(config.workspaceDir, config.home);
    if (config.scaffoldWorkspace) {
      const scaffold = scaffoldWorkspace(workspaceRoot);
      if (scaffold.scaffolded) logger.info({ workspace: workspaceRoot, files: scaffold.created.length }, "workspace scaffolded from the template");
    }
    return createWorkspacePaths(workspaceRoot);
  }

  /** The host facts plugins read. */
  function hostInfoFor(contributions: CollectedContributions, workspace: WorkspacePaths): HostInfo {
    // Resolved on first read (at the latest before requests are let through, in start()), then fixed: the
    // owner source parses the organisation file (YAML, cold: 20-40 ms), which no step before
    // listening needs; the agents' first sync reads the same parse after it (docs/benchmarks.md, issue 26).
    let owner: string | undefined;
    const hostInfo: HostInfo = {
      version: packageVersion,
      home: config.home,
      get owner() {
        return (owner ??= resolveOwner(config, contributions, workspace.root));
      },
      approvers: Object.freeze([...config.approvers]),
      startedAt,
      url,
      credential: (name) => hostCredential(config, name),
    };
    return hostInfo;
  }

  /**
   * The plugins, loaded, checked as a graph, put in order and registered (DI only): the
   * graph of declared dependencies is checked before any plugin's route or onStart.
   */
  async function preparePlugins(workspace: WorkspacePaths): Promise<{ ordered: PluginDefinition[]; hostInfo: HostInfo }> {
    const ordered = await collectAndOrder();
    phases.mark("plugins loaded and ordered");
    // Gathered (and checked) once: the owner source is read from them before the plugins
    // register, and the same gathering becomes the points' tokens after.
    const contributions = collectContributions(ordered);
    const hostInfo = hostInfoFor(contributions, workspace);
    registerPlugins(ordered, contributions, workspace, hostInfo);
    phases.mark("plugins registered");
    entities = ordered.flatMap((p) => p.entities ?? []);
    return { ordered, hostInfo };
  }

  /**
   * Each plugin's context and `register` (DI only), then the extension points' contributions
   * and every declaration's needs; the whole graph of declared dependencies is checked here,
   * before the database opens.
   */
  function registerPlugins(ordered: PluginDefinition[], contributions: CollectedContributions, workspace: WorkspacePaths, hostInfo: HostInfo): void {
    const pluginConfigs = new Map<string, Readonly<unknown>>();
    const pluginLoggers = new Map<string, Logger>();
    const pluginLogger = (id: string) => pluginLoggers.get(id) ?? pluginLoggers.set(id, logger.child({ plugin: id })).get(id)!;
    provideHostServices({ workspace, hostInfo, logger: pluginLogger, config: (id) => pluginConfigs.get(id) ?? Object.freeze({}) });
    let registering = true;
    for (const plugin of ordered) {
      const pluginConfig = plugin.config
        ? Object.freeze(validateConfig(plugin, config.pluginConfig[plugin.id]))
        : Object.freeze({ ...((config.pluginConfig[plugin.id] as object) ?? {}) });
      pluginConfigs.set(plugin.id, pluginConfig);
      const requester = requesterOf(plugin);
      requesters.set(plugin.id, requester);
      const ctx: PluginContext = {
        id: plugin.id,
        config: pluginConfig,
        logger: pluginLogger(plugin.id),
        events,
        gate: pluginGate,
        workspace,
        host: hostInfo,
        gateway,
        provide(definition) {
          if (!registering) throw new Error(`Plugin "${plugin.id}" called provide() outside register()`);
          services.register(definition, requester);
        },
        lifecycle: {
          onStop: (fn) => void stopHooks.push(fn),
          onServing: (fn) => (servingHooks ? void servingHooks.push({ plugin: plugin.id, fn }) : runServingHooks([{ plugin: plugin.id, fn }])),
        },
      };
      contexts.set(plugin.id, ctx);
      plugin.register?.(ctx);
    }
    registering = false;
    provideContributions(contributions, services, requesters);
    for (const plugin of ordered) {
      const requester = requesters.get(plugin.id)!;
      for (const [hook, declared] of [["routes", plugin.routes], ["onStart", plugin.onStart], ["onStop", plugin.onStop]] as const) {
        if (declared && typeof declared === "object") services.declare(declared, requester, `${plugin.id}.${hook}`);
      }
      for (const action of plugin.gatedActions ?? []) services.declare(action, requester, `${plugin.id}.gatedActions.${action.kind}`);
    }
    services.verify();
  }

  /**
   * Opens the database: PostgreSQL when DATABASE_URL names one (its module loaded only then),
   * else the embedded SQLite file, private to this user.
   */
  async function openStore(): Promise<OpenedDatabase> {
    if (config.databaseUrl) {
      const { openPostgresDatabase } = await import("./internal/postgres-database.ts");
      db = await openPostgresDatabase({ url: config.databaseUrl, entities, logger, busyBudgetMs: config.databaseBusyBudgetMs });
      phases.mark("database opened");
      return db;
    }
    const dbPath = join(config.home, "muster.db");
    const dbFiles = [dbPath, `${dbPath}-wal`, `${dbPath}-shm`];
    ensurePrivateFiles([dbPath], { create: true });
    ensurePrivateFiles(dbFiles);
    // MikroORM's SQL modules load after listening (start()), like the plugins' routes.
    const opened = await openDatabase({ path: dbPath, entities: () => entities, logger, loadOrmLater: true });
    db = opened;
    ensurePrivateFiles(dbFiles);
    phases.mark("database opened");
    return opened;
  }

  /** Applies every plugin's pending migrations, in plugin order; the applied ids. */
  async function applyMigrations(opened: OpenedDatabase, ordered: PluginDefinition[]): Promise<string[]> {
    const applied = await opened.migrate(ordered.map((p) => ({ pluginId: p.id, migrations: p.migrations ?? [] })));
    phases.mark("migrations");
    return applied;
  }

  async function openAndMigrate(ordered: PluginDefinition[]): Promise<{ opened: OpenedDatabase; applied: string[] }> {
    entities = ordered.flatMap((p) => p.entities ?? []);
    const opened = await openStore();
    return { opened, applied: await applyMigrations(opened, ordered) };
  }

  /** Every plugin's gated action kinds, built from their deps now that the database is open. */
  function defineGatedActions(ordered: PluginDefinition[]): void {
    for (const plugin of ordered) {
      for (const action of plugin.gatedActions ?? []) {
        if (!action.kind.startsWith(`${plugin.id}.`) && !action.exemptFromPrefix?.trim()) throw startErrors.PLUGIN_INVALID({ plugin: `plugin "${plugin.id}"`, reason: `gated action kind "${action.kind}" must start with "${plugin.id}."` });
        const deps = services.resolveNeeds(action, requesters.get(plugin.id)!, `${plugin.id}.gatedActions.${action.kind}`);
        gate.define(action.kind, action.create(deps));
      }
    }
  }

  /** The route table with the host's routes and the MCP endpoint (each plugin's come after listening: {@link mountPluginRoutes}). */
  function mountHostRouteTable(session: SessionToken, opened: OpenedDatabase): RouteTable {
    const routes = new RouteTable({
      bodyLimitBytes: config.bodyLimitBytes,
      requireSession: sessionCheck({ token: session, login, originAllowed: originPolicy({ allowedOrigins: config.allowedOrigins, port: () => port }) }),
      runHandler: storageGuard({ waiter: opened.lockWaiter, health: opened.writeHealth, busyBudgetMs: config.databaseBusyBudgetMs, logger }),
    });
    const summaries = (): PluginSummary[] =>
      started.map((p) => ({ id: p.id, version: p.version, source: sources.get(p.id) ?? "built-in", paths: p.paths ?? [], dependsOn: p.dependsOn ?? [], state: stopping ? "stopped" : "started" }));
    const hostRouteDeps: HostRouteDeps = {
      version: packageVersion,
      startedAt,
      url,
      databaseState: () => db?.state() ?? { database: "error" },
      session: session,
      login,
      routes: () => routes.routes,
      plugins: summaries,
      gateway: () => gateway.status(),
      gateways: () => gateway.links?.() ?? [],
      watcher: () => workspaceWatch.state,
    };
    mountHostRoutes(routes.forPlugin("host", HOST_PATHS), hostRouteDeps);
    // A health check needs nothing of the request: the lean lane answers it without a Koa context.
    routes.answerPlainly("/api/health", () => healthAnswer(hostRouteDeps));
    // MCP over Streamable HTTP: the host's, as it checks the session token for the write scope.
    mountMcpRoute(routes.forPlugin("host", HOST_PATHS), { version: packageVersion, url, session: session, openapi: () => buildOpenApi(routes.routes, { version: packageVersion, url: url() }), tools: () => services.resolve(hostPoints.mcpTools.contributions) });
    return routes;
  }

  /**
   * Each plugin's routes, then the contributed MCP tools checked against every mounted route.
   * Run after listening and before the start gate opens: no request but /api/health reaches
   * the table until then, and a route added clears the table's remembered matches. The event
   * loop turns between two plugins, so a health check that came meanwhile is answered then.
   */
  async function mountPluginRoutes(routes: RouteTable, ordered: PluginDefinition[]): Promise<void> {
    for (const plugin of ordered) {
      await turnOfTheLoop();
      const router = routes.forPlugin(plugin.id, plugin.paths ?? []);
      const ctx = contexts.get(plugin.id)!;
      const declared = plugin.routes;
      if (typeof declared === "function") declared(router, ctx);
      else if (declared) declared.mount(router, services.resolveNeeds(declared, requesters.get(plugin.id)!, `${plugin.id}.routes`), ctx);
    }
    checkServedTools(services.resolve(hostPoints.mcpTools.contributions), routes.routes);
  }

  /** Runs a plugin's `onStart` or `onStop`, resolving a declared hook's deps. */
  function runHook(plugin: PluginDefinition, hook: "onStart" | "onStop"): void | Promise<void> {
    const declared = plugin[hook];
    const ctx = contexts.get(plugin.id)!;
    if (typeof declared === "function") return declared(ctx);
    if (declared) return declared.run(services.resolveNeeds(declared, requesters.get(plugin.id)!, `${plugin.id}.${hook}`), ctx);
  }

  /** Each plugin's `onStart`, in order; the gateway link starts in the background first. */
  async function startPlugins(ordered: PluginDefinition[]): Promise<void> {
    // In the background: the host serves without the gateway, and plugins see its state change.
    gateway.start();
    for (const plugin of ordered) {
      // The server already listens: a health check that came during the last onStart is
      // answered before the next one runs.
      await turnOfTheLoop();
      // A stop() while the plugins start: start no more of them.
      if (stopping) throw new Error("The host was stopped during its start");
      await runHook(plugin, "onStart");
      started.push(plugin);
      if (plugin.onStart) phases.mark(`onStart ${plugin.id}`);
    }
  }

  /** The HTTP server, listening; from here on /api/health is served, other requests once `startGate` lets them through. */
  async function listen(routes: RouteTable, gate: StartGate): Promise<void> {
    const listener = createApp({
      logger,
      routes,
      startGate: gate,
      metrics: httpMetrics,
      answerAfterWrites: Boolean(config.databaseUrl),
      security: {
        development: config.development,
        bindHost: config.host,
        allowedHosts: config.allowedHosts,
        allowedOrigins: config.allowedOrigins,
        apiToken: config.apiToken,
        port: () => port,
      },
    });
    server = createServer(
      // Node checks these timeouts on an interval; a short one makes a dribbling client
      // (slowloris) lose its connection soon after headersTimeout instead of up to 30 s later.
      // requireHostHeader off: the Host check in accessChecks refuses a missing Host for
      // HTTP/1.0 and 1.1 alike, with the security headers Node's own 400 lacks.
      {
        headersTimeout: config.headersTimeoutMs,
        requestTimeout: 60_000,
        connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs),
        requireHostHeader: false,
      },
      listener,
    );
    server.keepAliveTimeout = 5_000;
    server.on("clientError", clientErrorHandler(config.development));
    await new Promise<void>((resolveListen, rejectListen) => {
      server!.once("error", (error) => rejectListen(listenError(error, config.port, config.host)));
      server!.listen(config.port, config.host, () => {
        server!.off("error", rejectListen);
        resolveListen();
      });
    });
    port = (server.address() as AddressInfo).port;
    lock?.update({ url: url(), port });
  }

  const lifecycle = {
    /** The boot phases in order; each is named in the "muster started" log line with its duration. */
    async start() {
      phases.mark("host created to start()");
      const workspace = prepareWorkspace();
      phases.mark("workspace scaffold");
      // PostgreSQL builds MikroORM over the plugins' entities as it opens, and the team's tables
      // are read before listening: there the plugins load first. SQLite's first health answer
      // needs none of them: they load after listening, before any other request is let through.
      let prepared = config.databaseUrl ? await preparePlugins(workspace) : undefined;
      const opened = await openStore();
      // SQLite migrates after listening (a fresh database's ~25 migrations were ~30-50 ms of
      // the path to the first health answer, which reads no plugin table). PostgreSQL
      // migrates first: the team's instance and session tables are read before listening.
      const migrateAfterListening = opened.engine === "sqlite";
      if (!migrateAfterListening) await applyMigrations(opened, prepared!.ordered);
      instances = await startInstanceRegistry(opened, logger);
      const team = opened.engine === "postgresql" ? await teamSessions(opened) : undefined;
      if (team) login = team.login;
      const session = createSessionToken(config.home, team?.sessionToken);
      currentSession = session;
      const routes = mountHostRouteTable(session, opened);
      phases.mark("host routes mounted");
      // Listening before the plugins' routes and onStart: /api/health answers from here (it
      // reads only the database's state and the host's), while every other request waits at
      // the start gate until every route is mounted, each onStart has run and the watcher has
      // its mark, so nothing half-started is ever served (docs/benchmarks.md, issue 26).
      startup = startGate();
      await listen(routes, startup);
      phases.mark("listen");
      let ordered: PluginDefinition[];
      let hostInfo: HostInfo;
      try {
        // The loop turns between these steps (each takes 20-40 ms), so a health check that
        // came meanwhile is answered between two.
        prepared ??= await preparePlugins(workspace);
        ({ ordered, hostInfo } = prepared);
        await turnOfTheLoop();
        await opened.loadOrm();
        phases.mark("ORM modules loaded");
        await turnOfTheLoop();
        // Before any plugin service is built: a service may prepare statements on its tables.
        if (migrateAfterListening) await applyMigrations(opened, ordered);
        defineGatedActions(ordered);
        await mountPluginRoutes(routes, ordered);
        phases.mark("routes mounted");
        await startPlugins(ordered);
        if (stopping) throw new Error("The host was stopped during its start");
        // The watcher starts after every plugin's onStart, so each subscriber is in place before
        // the first change is published. Its initial scan runs while the server already
        // serves: a file changed meanwhile is published from the scan's stats (watcher.ts),
        // and the indexes walk the workspace only once `hostTokens.workspaceWatch` says it ended.
        watcher = startWorkspaceWatcher({ root: workspace.root, events, logger: logger.child({ component: "watcher" }), debounceMs: config.watchDebounceMs, maxWaitMs: config.watchMaxWaitMs });
        markTaken(true);
        void watcher.scanned.then(endScan);
        phases.mark("workspace watcher started");
      } catch (error) {
        startup.fail();
        throw error;
      }
      // The owner (who decides approvals) is fixed by now at the latest (a plugin's onStart may
      // have read it already): during the start, before any request but health is let through,
      // never at some later first read that a workspace edit could precede.
      void hostInfo.owner;
      // From here on requests are served: no statement may wait long for a lock.
      opened.startServing();
      startup.open();
      phases.mark("requests let through");
      const warmUps = servingHooks!;
      servingHooks = undefined;
      runServingHooks(warmUps);
      const bundled = (globalThis as Record<symbol, unknown>)[Symbol.for("muster.startBundle")] === true;
      logger.info({ url: url(), plugins: ordered.map((p) => p.id), startup: phases.list(), startBundle: bundled }, "muster started");
    },

    stop() {
      // Requests still waiting for a start that will not end are answered 503 now.
      startup?.fail();
      stopping ??= (async () => {
        await runSafely(() => watcher?.close(), "workspace watcher close");
        markTaken(false); // also when the start failed before the watcher began
        endScan(false);
        // The plugins' repeated sweeps end before any plugin stops what they sweep.
        await runSafely(() => instances?.stopSweeps(), "team sweeps stop");
        if (server) {
          const closed = new Promise<void>((r) => server!.close(() => r()));
          server.closeIdleConnections();
          // In-flight requests get a moment to finish; long streams are ended by their plugins' onStop.
          const force = setTimeout(() => server?.closeAllConnections(), 3_000);
          for (const plugin of [...started].reverse()) await runSafely(() => runHook(plugin, "onStop"), `${plugin.id}.onStop`);
          for (const hook of [...stopHooks].reverse()) await runSafely(hook, "onStop hook");
          await closed;
          clearTimeout(force);
        } else {
          for (const plugin of [...started].reverse()) await runSafely(() => runHook(plugin, "onStop"), `${plugin.id}.onStop`);
          for (const hook of [...stopHooks].reverse()) await runSafely(hook, "onStop hook");
        }
        await runSafely(() => gateway.stop(), "gateway client stop");
        events.clear();
        services.dispose();
        await runSafely(() => instances?.stop(), "instance registry stop");
        await db?.close();
        lock?.release();
        logger.info("muster stopped");
      })();
      return stopping;
    },
  };

  /**
   * The host's own services, resolved through `hostTokens` like any plugin's. The database
   * is a view that opens on first use after the migrations: a service may receive it in
   * `register` (DI only) but fails loudly if it touches it before then.
   */
  function provideHostServices(host: { workspace: WorkspacePaths; hostInfo: HostInfo; logger: (plugin: string) => Logger; config: (plugin: string) => Readonly<unknown> }) {
    const database = lazyDatabase(() => {
      if (!db) throw new Error("The database was used before it was open and migrated (not allowed in register or a service constructor)");
      return db;
    });
    services.provideHost(hostTokens.db, () => database);
    services.provideHost(hostTokens.events, () => events);
    services.provideHost(hostTokens.gate, () => pluginGate);
    services.provideHost(hostTokens.redaction, () => redaction);
    services.provideHost(hostTokens.gateway, () => gateway);
    services.provideHost(hostTokens.workspace, () => host.workspace);
    services.provideHost(hostTokens.workspaceWatch, () => workspaceWatch);
    services.provideHost(hostTokens.info, () => host.hostInfo);
    services.provideHost(hostTokens.logger, host.logger);
    services.provideHost(hostTokens.config, host.config);
    services.provideHost(hostTokens.httpMetrics, () => httpMetrics);
    services.provideHost(hostTokens.instances, (plugin) => {
      if (!instances) throw new Error("hostTokens.instances was used before the database was open (not allowed in register or a service constructor)");
      return instances.forPlugin(host.logger(plugin));
    });
    services.provideHost(hostTokens.rateLimits, () => {
      if (!instances || !db) throw new Error("hostTokens.rateLimits was used before the database was open (not allowed in register or a service constructor)");
      return (rateLimits ??= createRateLimits(db, instances, logger));
    });
  }

  /**
   * The plugins' warm-ups (`ctx.lifecycle.onServing`), each in a turn of its own after the
   * start gate opened, none awaited by the next: what no request needs before it (a probe of
   * an optional system tool, preparing lookups) no longer holds up the start (issue 26).
   */
  function runServingHooks(hooks: { plugin: string; fn: () => void | Promise<void> }[]): void {
    void (async () => {
      for (const hook of hooks) {
        await turnOfTheLoop();
        if (stopping) return;
        void runSafely(hook.fn, `${hook.plugin}'s onServing hook`);
      }
    })();
  }

  async function runSafely(fn: () => unknown, what: string) {
    try {
      await fn();
    } catch (error) {
      logger.error({ err: error }, `${what} failed`);
    }
  }

  function validateConfig(plugin: PluginDefinition, raw: unknown) {
    const parsed = plugin.config!.safeParse(raw ?? {}, PARSED_ONCE);
    if (parsed.success) return parsed.data;
    const problems = summarizeDetails(zodIssueDetails(parsed.error, undefined, "(root)"));
    throw startErrors.CONFIG_INVALID({ source: `configuration for plugin "${plugin.id}" in muster.config.json`, problems });
  }

  return host;
}

/** A {@link Database} that forwards every member to the opened one, opened or not yet. */
function lazyDatabase(opened: () => Database): Database {
  return new Proxy({} as Database, {
    get(_target, member) {
      const target = opened();
      const value = Reflect.get(target, member, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
