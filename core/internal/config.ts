// Configuration in two phases: optional user input (environment + muster.config.json)
// in, a frozen resolved config out. Environment variables win over the file.
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { z } from "zod";
import { summarizeDetails, zodIssueDetails } from "../plugin-api/zod-issues.ts";
import { startErrors } from "./start-errors.ts";
import { parsePostgresUrl } from "./postgres-url.ts";
import type { HostCredential } from "../plugin-api/context.ts";
import { DEFAULT_GATEWAY_SCOPES, DEFAULT_GATEWAY_TIMINGS, type GatewayTimings } from "./gateway/timings.ts";
import { DEFAULT_LINK, gatewayEntrySchema, gatewayUrlSchema, parseGatewayUrlList, resolveGatewayLinks, type GatewayLinkConfig } from "./gateway/link-config.ts";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** The resolved configuration every part of the host reads. */
export interface MusterConfig {
  port: number;
  host: string;
  home: string;
  /** Explicit `WORKSPACE_DIR`, or null to use the default resolution (DESIGN §10). */
  workspaceDir: string | null;
  /** The OpenClaw gateway's WebSocket URL, or `off` (no gateway: state `disabled`); with several gateways, the first one's. */
  gatewayUrl: string;
  /**
   * Every gateway link (DESIGN §16), in order; the first is the default one. One gateway is
   * one link named "default" built from gatewayUrl/gatewayToken/gatewayScopes (link-config.ts).
   */
  gateways: readonly GatewayLinkConfig[];
  /** `DATABASE_URL`: a PostgreSQL database (team mode, DESIGN §16); null for the embedded SQLite file. */
  databaseUrl: string | null;
  /** `POSTGRES_BIN_DIR`: where `muster backup`/`restore` take pg_dump and pg_restore from; null to search PATH and Debian's directories. */
  postgresBinDir: string | null;
  /** The first gateway's token (the vault passphrase falls back to it). */
  gatewayToken: string | null;
  /** Default timeout of one gateway call (`GATEWAY_REQUEST_TIMEOUT_MS`). */
  gatewayRequestTimeoutMs: number;
  /** Operator scopes requested at connect (`GATEWAY_SCOPES`, comma-separated). */
  gatewayScopes: string[];
  /**
   * Ed25519 device identity (`GATEWAY_DEVICE_IDENTITY`): `auto` uses one only for a gateway
   * that is not on loopback (it would grant no scopes otherwise), `on` always, `off` never.
   */
  gatewayDeviceIdentity: "auto" | "on" | "off";
  /** The client's clocks (reconnect backoff, handshake timeouts); tests shorten them. */
  gatewayTimings: GatewayTimings;
  vaultKey: string | null;
  apiToken: string | null;
  allowedOrigins: string[];
  allowedHosts: string[];
  logLevel: (typeof LOG_LEVELS)[number];
  /** `MUSTER_OWNER`, or null to take the organisation file's owner (else `owner`). */
  owner: string | null;
  /**
   * The other humans who may decide approvals besides the owner (`MUSTER_APPROVERS`,
   * comma-separated, else `approvers` in muster.config.json; default none).
   */
  approvers: string[];
  development: boolean;
  /** Third-party plugin packages to load (from muster.config.json). */
  plugins: string[];
  /** Built-in plugin ids to leave out. */
  disabledPlugins: string[];
  /** Per-plugin configuration sections, validated by each plugin's own schema. */
  pluginConfig: Record<string, unknown>;
  /** Largest accepted JSON request body, in bytes. */
  bodyLimitBytes: number;
  /** Time a client has to send its request headers (slowloris defence). */
  headersTimeoutMs: number;
  /** Whether a new (missing or empty) workspace directory is filled from the workspace template. */
  scaffoldWorkspace: boolean;
  /** Workspace watcher: quiet time that coalesces a burst of writes to one file into one change. */
  watchDebounceMs: number;
  /** Workspace watcher: a file written without pause is still reported at least this often. */
  watchMaxWaitMs: number;
  /**
   * How long a request waits (asynchronously) for a database another process has locked
   * before it gets 503 DATABASE_BUSY.
   */
  databaseBusyBudgetMs: number;
}

const origin = z.string().refine((v) => {
  try {
    const u = new URL(v);
    return (u.protocol === "http:" || u.protocol === "https:") && u.origin === v;
  } catch {
    return false;
  }
}, "must be an origin such as http://localhost:5173 (scheme, host, optional port, no path)");

const csv = (v: string | undefined) => (v ?? "").split(",").map((s) => s.trim()).filter(Boolean);

/** One URL is checked here (its message unchanged); a list (`a,b` or `name=url`) entry by entry in {@link parseGatewayUrlList}. */
const isGatewayList = (v: string) => v.includes(",") || /^[a-z][a-z0-9-]*=/.test(v);
const gatewayUrl = z.string().refine((v) => isGatewayList(v) || gatewayUrlSchema.safeParse(v).success, "must be a ws:// or wss:// URL, or off");

// Read as libpq reads it (postgres-url.ts: a socket directory as the host, sslmode), so a URL
// Muster would misread stops start-up here, saying what is wrong.
const databaseUrl = z.string().superRefine((v, ctx) => {
  try {
    parsePostgresUrl(v);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: `must be a PostgreSQL URL such as postgres://user:password@host:5432/database (unset for the embedded SQLite database), but ${(error as Error).message}` });
  }
});

const envSchema = z.object({
  PORT: z.coerce.number({ error: "must be a port number" }).int().min(0).max(65535).optional(),
  HOST: z.string().min(1).optional(),
  MUSTER_HOME: z.string().min(1).optional(),
  WORKSPACE_DIR: z.string().min(1).optional(),
  GATEWAY_URL: gatewayUrl.optional(),
  DATABASE_URL: databaseUrl.optional(),
  POSTGRES_BIN_DIR: z.string().min(1).optional(),
  GATEWAY_TOKEN: z.string().min(1).optional(),
  GATEWAY_REQUEST_TIMEOUT_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int().min(100).max(3_600_000).optional(),
  GATEWAY_SCOPES: z.string().optional().transform((v) => (v === undefined ? undefined : csv(v))).pipe(z.array(z.string().regex(/^operator\.[a-z.]+$/, "must be operator scopes such as operator.read")).optional()),
  GATEWAY_DEVICE_IDENTITY: z.enum(["auto", "on", "off"]).optional(),
  VAULT_KEY: z.string().min(1).optional(),
  MUSTER_API_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  MUSTER_ALLOWED_ORIGINS: z.string().optional().transform(csv).pipe(z.array(origin)),
  MUSTER_ALLOWED_HOSTS: z.string().optional().transform(csv).pipe(z.array(z.string().regex(/^[A-Za-z0-9.-]+$/, "must be host names"))),
  LOG_LEVEL: z.enum(LOG_LEVELS).optional(),
  MUSTER_OWNER: z.string().min(1).max(128).optional(),
  MUSTER_APPROVERS: z.string().optional().transform((v) => (v === undefined ? undefined : csv(v))).pipe(z.array(z.string().max(128, "each approver must be at most 128 characters")).optional()),
  NODE_ENV: z.string().optional(),
});

const fileSchema = z.strictObject({
  $schema: z.string().optional(),
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  workspaceDir: z.string().min(1).optional(),
  gatewayUrl: gatewayUrlSchema.optional(),
  /** Several gateways (DESIGN §16): their tokens come from the environment, never from this file. */
  gateways: z.array(gatewayEntrySchema).min(1).optional(),
  gatewayRequestTimeoutMs: z.number().int().min(100).max(3_600_000).optional(),
  gatewayScopes: z.array(z.string().regex(/^operator\.[a-z.]+$/)).optional(),
  gatewayDeviceIdentity: z.enum(["auto", "on", "off"]).optional(),
  allowedOrigins: z.array(origin).optional(),
  allowedHosts: z.array(z.string()).optional(),
  logLevel: z.enum(LOG_LEVELS).optional(),
  owner: z.string().min(1).optional(),
  approvers: z.array(z.string().trim().min(1).max(128)).optional(),
  scaffoldWorkspace: z.boolean().optional(),
  watchDebounceMs: z.number().int().min(0).max(10_000).optional(),
  watchMaxWaitMs: z.number().int().min(1).max(60_000).optional(),
  databaseBusyBudgetMs: z.number().int().min(0).max(60_000).optional(),
  plugins: z.array(z.string().min(1)).default([]),
  disabledPlugins: z.array(z.string().min(1)).default([]),
  config: z.record(z.string(), z.unknown()).default({}),
});

export type MusterConfigFile = z.input<typeof fileSchema>;

/** Every problem of a refused environment or file, `name: reason; ...`. */
const describe = (error: z.ZodError) => summarizeDetails(zodIssueDetails(error, undefined, "(root)"));

/** Overrides tests and embedders pass to `createHost`, on top of env and file. */
export type ConfigOverrides = Partial<Omit<MusterConfig, "gatewayTimings" | "gateways">> & {
  gatewayTimings?: Partial<GatewayTimings>;
  /** Several gateways, as muster.config.json's `gateways` with their tokens (each link's scopes and device identity default to the config's). */
  gateways?: readonly (Pick<GatewayLinkConfig, "name" | "url"> & Partial<GatewayLinkConfig>)[];
};

/**
 * For a schema parsed once per process (configuration at start): zod's compiled fast path
 * for objects costs a code generation and a compile on the first parse, which only pays off
 * for schemas parsed per request (the plugins' configurations together: 16-49 ms of CPU
 * compiled against 7-11 ms without, cold, in-process).
 */
export const PARSED_ONCE = { jitless: true } as const;

/**
 * Reads and validates the configuration. Throws CONFIG_INVALID naming the bad
 * variable or file field.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): MusterConfig {
  const parsedEnv = envSchema.safeParse(env, PARSED_ONCE);
  if (!parsedEnv.success) {
    throw startErrors.CONFIG_INVALID({ source: "environment", problems: describe(parsedEnv.error) });
  }
  const e = parsedEnv.data;
  const home = resolve(overrides.home ?? e.MUSTER_HOME ?? ".muster");

  const filePath = join(home, "muster.config.json");
  let file: z.output<typeof fileSchema> = fileSchema.parse({}, PARSED_ONCE);
  if (existsSync(filePath)) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(filePath, "utf8"));
    } catch (error) {
      throw startErrors.CONFIG_INVALID({ source: filePath, problems: `it is not valid JSON: ${(error as Error).message}` });
    }
    const parsedFile = fileSchema.safeParse(raw, PARSED_ONCE);
    if (!parsedFile.success) throw startErrors.CONFIG_INVALID({ source: filePath, problems: describe(parsedFile.error) });
    file = parsedFile.data;
  }

  const gateways = gatewayLinks(e, file, overrides, env, filePath);
  const workspace = overrides.workspaceDir !== undefined ? overrides.workspaceDir : e.WORKSPACE_DIR ?? file.workspaceDir ?? null;
  const config: MusterConfig = {
    port: overrides.port ?? e.PORT ?? file.port ?? 3333,
    host: overrides.host ?? e.HOST ?? file.host ?? "127.0.0.1",
    home,
    workspaceDir: workspace === null ? null : isAbsolute(workspace) ? workspace : resolve(workspace),
    gatewayUrl: gateways[0]!.url,
    gateways,
    databaseUrl: overrides.databaseUrl !== undefined ? overrides.databaseUrl : e.DATABASE_URL ?? null,
    postgresBinDir: overrides.postgresBinDir !== undefined ? overrides.postgresBinDir : e.POSTGRES_BIN_DIR ? resolve(e.POSTGRES_BIN_DIR) : null,
    gatewayToken: gateways[0]!.token,
    gatewayRequestTimeoutMs: overrides.gatewayRequestTimeoutMs ?? e.GATEWAY_REQUEST_TIMEOUT_MS ?? file.gatewayRequestTimeoutMs ?? 30_000,
    gatewayScopes: overrides.gatewayScopes ?? e.GATEWAY_SCOPES ?? file.gatewayScopes ?? [...DEFAULT_GATEWAY_SCOPES],
    gatewayDeviceIdentity: overrides.gatewayDeviceIdentity ?? e.GATEWAY_DEVICE_IDENTITY ?? file.gatewayDeviceIdentity ?? "auto",
    gatewayTimings: Object.freeze({ ...DEFAULT_GATEWAY_TIMINGS, ...overrides.gatewayTimings }),
    vaultKey: overrides.vaultKey !== undefined ? overrides.vaultKey : e.VAULT_KEY ?? null,
    apiToken: overrides.apiToken !== undefined ? overrides.apiToken : e.MUSTER_API_TOKEN ?? null,
    allowedOrigins: overrides.allowedOrigins ?? [...e.MUSTER_ALLOWED_ORIGINS, ...(file.allowedOrigins ?? [])],
    allowedHosts: overrides.allowedHosts ?? [...e.MUSTER_ALLOWED_HOSTS, ...(file.allowedHosts ?? [])],
    logLevel: overrides.logLevel ?? e.LOG_LEVEL ?? file.logLevel ?? "info",
    owner: overrides.owner !== undefined ? overrides.owner : e.MUSTER_OWNER ?? file.owner ?? null,
    // A list of deciders is replaced, never merged: the environment's list wins over the file's.
    approvers: overrides.approvers ?? e.MUSTER_APPROVERS ?? file.approvers ?? [],
    development: overrides.development ?? e.NODE_ENV === "development",
    plugins: overrides.plugins ?? file.plugins,
    disabledPlugins: overrides.disabledPlugins ?? file.disabledPlugins,
    pluginConfig: { ...file.config, ...(overrides.pluginConfig ?? {}) },
    bodyLimitBytes: overrides.bodyLimitBytes ?? 1024 * 1024,
    headersTimeoutMs: overrides.headersTimeoutMs ?? 10_000,
    scaffoldWorkspace: overrides.scaffoldWorkspace ?? file.scaffoldWorkspace ?? true,
    watchDebounceMs: overrides.watchDebounceMs ?? file.watchDebounceMs ?? 50,
    watchMaxWaitMs: overrides.watchMaxWaitMs ?? file.watchMaxWaitMs ?? 500,
    databaseBusyBudgetMs: overrides.databaseBusyBudgetMs ?? file.databaseBusyBudgetMs ?? 5_000,
  };

  if (!isLoopback(config.host) && !config.apiToken) {
    throw startErrors.CONFIG_INVALID({
      source: "configuration",
      problems: `HOST=${config.host} is not a loopback address: set MUSTER_API_TOKEN (at least 16 characters) so that every request must carry it as a bearer token`,
    });
  }
  return Object.freeze(config);
}

/**
 * The gateway links: overrides (tests, embedders) first, then GATEWAY_URL, then the file's
 * `gateways`, then its `gatewayUrl`. Refused lists (repeated names, a bad entry, a token
 * count that does not match) are CONFIG_INVALID naming the variable.
 */
function gatewayLinks(e: z.output<typeof envSchema>, file: z.output<typeof fileSchema>, overrides: ConfigOverrides, env: NodeJS.ProcessEnv, filePath: string): GatewayLinkConfig[] {
  const defaults = {
    scopes: overrides.gatewayScopes ?? e.GATEWAY_SCOPES ?? file.gatewayScopes ?? [...DEFAULT_GATEWAY_SCOPES],
    deviceIdentity: overrides.gatewayDeviceIdentity ?? e.GATEWAY_DEVICE_IDENTITY ?? file.gatewayDeviceIdentity ?? "auto",
    token: overrides.gatewayToken !== undefined ? overrides.gatewayToken : e.GATEWAY_TOKEN ?? null,
  };
  let entries: { name: string; url: string; scopes?: string[] | undefined; deviceIdentity?: "auto" | "on" | "off" | undefined }[];
  let source = "configuration";
  if (overrides.gateways) {
    return overrides.gateways.map((g) => ({ name: g.name, url: g.url, token: g.token ?? null, scopes: g.scopes ?? defaults.scopes, deviceIdentity: g.deviceIdentity ?? defaults.deviceIdentity }));
  } else if (overrides.gatewayUrl !== undefined) entries = [{ name: DEFAULT_LINK, url: overrides.gatewayUrl }];
  else if (e.GATEWAY_URL !== undefined) {
    const parsed = parseGatewayUrlList(e.GATEWAY_URL);
    if ("problem" in parsed) throw startErrors.CONFIG_INVALID({ source: "environment", problems: parsed.problem });
    entries = parsed.entries;
    source = "environment";
  } else if (file.gateways) {
    entries = file.gateways;
    source = filePath;
  } else entries = [{ name: DEFAULT_LINK, url: file.gatewayUrl ?? "ws://127.0.0.1:18789" }];
  const resolved = resolveGatewayLinks(entries, env, defaults, source === "environment" ? "GATEWAY_URL" : "gateways");
  if ("problem" in resolved) throw startErrors.CONFIG_INVALID({ source, problems: resolved.problem });
  return resolved.links;
}

/** Whether an address or host name is loopback-only. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** A credential of the configuration as plugins read it (`ctx.host.credential`, a command's or a doctor check's `credential`). */
export function hostCredential(config: Pick<MusterConfig, "vaultKey" | "gatewayToken">, name: HostCredential): string | null {
  return name === "vaultKey" ? config.vaultKey : name === "gatewayToken" ? config.gatewayToken : null;
}
