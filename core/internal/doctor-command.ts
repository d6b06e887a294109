// `muster doctor` (DESIGN §14.1): checks every link Muster depends on, in order, and names
// the first broken one with what to do. Read-only towards a running server: its database
// is checked through its /api/health, never opened beside it.
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync, accessSync, constants } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { hostCredential, loadConfig, type MusterConfig } from "./config.ts";
import { isStartError } from "./start-errors.ts";
import { packageVersion } from "./package-version.ts";
import { reachableUrl, runningInstance } from "./instance-lock.ts";
import { resolveWorkspaceRoot } from "./workspace/paths.ts";
import { staticContributions } from "./contributions.ts";
import { hostPoints, type DoctorCheck, type DoctorContext } from "../plugin-api/host-points.ts";
import type { PluginDefinition } from "../plugin-api/define-plugin.ts";
import { deviceFile, loadDeviceIdentity, type DeviceIdentity } from "./gateway/device-identity.ts";
import type { GatewayLinkConfig } from "./gateway/link-config.ts";
import { wantsDevice } from "./gateway/handshake.ts";
import { probeGateway, type ProbeResult, type ProbeStep } from "./gateway/probe.ts";
import { EXIT, parseCommandArgs, runCommand, type CliCommand, type CommandStreams } from "./cli/command.ts";
import { openPostgresFor } from "./cli/open-postgres.ts";
import { configuredPlugins } from "./plugin-loader.ts";

export interface DoctorOptions {
  /** Read instead of `process.env` (tests). */
  env?: NodeJS.ProcessEnv;
  /** The migrations a current database has (the built-in plugins'), by plugin id. */
  migrations?: { pluginId: string; names: string[] }[];
  /** The built-in plugins; their contributed checks (hostPoints.doctorChecks) and the configured packages' run after the host's. */
  plugins?: readonly PluginDefinition[];
}

/** `warn`: an optional part is not set up; reported, never a failure. */
export type CheckStatus = "ok" | "warn" | "fail" | "skipped" | "disabled";

export interface CheckResult {
  id: string;
  name: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}

const GATEWAY_CHECKS: { step: ProbeStep; name: string }[] = [
  { step: "tcp", name: "gateway TCP reachable" },
  { step: "websocket", name: "WebSocket upgrade" },
  { step: "challenge", name: "connect.challenge" },
  { step: "token", name: "token accepted" },
  { step: "scopes", name: "scopes granted" },
  { step: "protocol", name: "protocol version" },
  { step: "agents", name: "agents.list" },
];

const HELP = `Usage: muster doctor [--json]

Checks every link Muster depends on, in order, and names each broken one with what to do:
config, MUSTER_HOME writable, database and migrations, workspace, then the OpenClaw gateway:
TCP reachable, WebSocket upgrade, connect.challenge, token accepted, scopes granted, protocol
version, agents.list, crew registered (every agent of the organisation file in agents.list),
and last the optional vault key (not set: a warning; set but not the vault's: a failure).
Every check is reported: one is skipped only when a check it needs failed (the gateway steps
need the one before). With GATEWAY_URL=off the gateway checks say "disabled". A running
server is never disturbed: its database and vault are checked through its HTTP API.

  --json    a machine-readable report: { ok, checks: [{ id, name, status, detail, fix? }] }
            (status: ok, warn, fail, skipped, disabled)

Exit codes: 0 no check failed (warnings allowed); 1 a check failed; 2 usage error.`;

export function doctorCommand(options: DoctorOptions = {}): CliCommand {
  const command: CliCommand = {
    name: "doctor",
    usage: [{ form: "doctor [--json]", summary: "check config, home, database, workspace, the gateway link, crew registration and vault key" }],
    help: HELP,
    run: (args, io) => runCommand(command, args, io, () => runDoctor(args, io, options)),
  };
  return command;
}

async function runDoctor(args: string[], io: CommandStreams, options: DoctorOptions): Promise<number> {
  const { values } = parseCommandArgs(args, { json: { type: "boolean" } }, { min: 0, max: 0 });
  const checks = await runChecks(options);
  const ok = checks.every((c) => c.status !== "fail");
  if (values.json) io.stdout.write(`${JSON.stringify({ ok, checks }, null, 2)}\n`);
  else io.stdout.write(render(checks, ok));
  return ok ? EXIT.ok : EXIT.failure;
}

type Check = Omit<CheckResult, "id" | "name">;

async function runChecks(deps: DoctorOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const ok = (r: CheckResult | undefined) => ["ok", "warn"].includes(r?.status ?? "");
  // With several gateways a check needing `gateway.<step>` needs that step on every link (`gateway.<name>.<step>`).
  const perLink = (id: string) => (id.startsWith("gateway.") ? results.filter((r) => r.id.startsWith("gateway.") && r.id.endsWith(`.${id.slice(8)}`) && r.id.split(".").length === 3) : []);
  const passed = (id: string) => {
    const exact = results.find((r) => r.id === id);
    if (exact) return ok(exact);
    const links = perLink(id);
    return links.length > 0 && links.every(ok);
  };
  /** Runs a check unless one it needs did not pass: an unrelated failure never hides a diagnosis. */
  const add = async (id: string, name: string, needs: string[], run: () => Check | Promise<Check>) => {
    const blocker = needs.find((n) => !passed(n));
    if (blocker !== undefined) {
      const by = results.find((r) => r.id === blocker);
      return void results.push({ id, name, status: "skipped", detail: `not checked (${by?.status === "disabled" ? `${by.name} is disabled` : `needs ${by?.name ?? blocker}`})` });
    }
    try {
      results.push({ id, name, ...(await run()) });
    } catch (error) {
      results.push({ id, name, status: "fail", detail: (error as Error).message });
    }
  };

  let config: MusterConfig | undefined;
  await add("config", "config", [], () => {
    try {
      config = loadConfig(deps.env ?? process.env);
    } catch (error) {
      if (!isStartError(error)) throw error;
      return { status: "fail", detail: error.message, fix: "fix the named environment variable or muster.config.json field (README: Configuration)" };
    }
    const gateways = config.gateways.length > 1 ? config.gateways.map((g) => `${g.name}=${g.url}`).join(",") : config.gatewayUrl;
    return { status: "ok", detail: `MUSTER_HOME ${config.home}, GATEWAY_URL ${gateways}` };
  });
  await add("home", "MUSTER_HOME writable", ["config"], () => homeWritable(config!.home));
  await add("database", "database and migrations", ["home"], () => checkDatabase(config!, deps.migrations));
  await add("workspace", "workspace", ["config"], () => checkWorkspace(config!));
  const agentIds = await gatewayChecks(config, results, add);
  await contributedChecks(deps.plugins ?? [], config, agentIds, add);
  return results;
}

/**
 * The checks plugins contribute (hostPoints.doctorChecks), after the host's, in plugin order:
 * the optional ones last, so that whatever they say the diagnosis before them is complete.
 * Each also needs the configuration, which its context is read from.
 */
async function contributedChecks(plugins: readonly PluginDefinition[], config: MusterConfig | undefined, gatewayAgentIds: readonly string[], add: (id: string, name: string, needs: string[], run: () => Check | Promise<Check>) => Promise<void>): Promise<void> {
  // With the configuration: the plugins its host would load (disabled ones out, installed packages in).
  const loaded = config ? await configuredPlugins(plugins, config, "skip") : plugins;
  const checks = staticContributions(loaded, hostPoints.doctorChecks).map((c) => c.value);
  for (const check of [...checks.filter((c) => !c.optional), ...checks.filter((c) => c.optional)]) {
    await add(check.id, check.name, [...(check.needs ?? []), "config"], () => runContributed(check, doctorContext(config!, gatewayAgentIds)));
  }
}

/**
 * The gateway steps of each link in order; a step needs the one before. One gateway keeps the
 * ids `gateway.<step>`; several are `gateway.<name>.<step>`, named `<check> (gateway <name>)`.
 * Returns the ids every link's agents.list named.
 */
async function gatewayChecks(config: MusterConfig | undefined, results: CheckResult[], add: (id: string, name: string, needs: string[], run: () => Check | Promise<Check>) => Promise<void>): Promise<string[]> {
  const links: readonly GatewayLinkConfig[] = config?.gateways ?? [{ name: "default", url: "", token: null, scopes: [], deviceIdentity: "auto" }];
  const agentIds = new Set<string>();
  for (const link of links) {
    const several = links.length > 1;
    const id = (step: string) => (several ? `gateway.${link.name}.${step}` : `gateway.${step}`);
    const name = (check: string) => (several ? `${check} (gateway ${link.name})` : check);
    for (const agent of await linkChecks(config, link, { id, name }, results, add)) agentIds.add(agent);
  }
  return [...agentIds];
}

async function linkChecks(
  config: MusterConfig | undefined,
  link: GatewayLinkConfig,
  label: { id: (step: string) => string; name: (check: string) => string },
  results: CheckResult[],
  add: (id: string, name: string, needs: string[], run: () => Check | Promise<Check>) => Promise<void>,
): Promise<string[]> {
  if (config && link.url === "off") {
    for (const c of GATEWAY_CHECKS) results.push({ id: label.id(c.step), name: label.name(c.name), status: "disabled", detail: "GATEWAY_URL=off" });
    return [];
  }
  let probed: ProbeResult[] = [];
  await add(label.id("tcp"), label.name(GATEWAY_CHECKS[0]!.name), ["config"], async () => {
    let device: DeviceIdentity | null = null;
    if (wantsDevice(link.deviceIdentity, link.url)) {
      try {
        device = loadDeviceIdentity(config!.home, link.name);
      } catch (error) {
        return { status: "fail", detail: `the gateway device identity cannot be loaded: ${(error as Error).message}`, fix: `remove ${deviceFile(config!.home, link.name)} to create a new one (it must be paired again)` };
      }
    }
    probed = await probeGateway({ url: link.url, token: link.token, scopes: link.scopes, version: packageVersion, device });
    return probeCheck(probed, "tcp");
  });
  // The probe walks the steps in order and stops at the first broken one (the rest are not in its answer).
  for (const c of GATEWAY_CHECKS.slice(1)) {
    const found = probed.find((p) => p.step === c.step);
    if (found) results.push({ id: label.id(c.step), name: label.name(c.name), status: found.status, detail: found.detail, ...(found.fix ? { fix: found.fix } : {}) });
    else results.push({ id: label.id(c.step), name: label.name(c.name), status: "skipped", detail: "not checked (an earlier gateway check failed)" });
  }
  return probed.find((p) => p.step === "agents")?.agentIds ?? [];
}

function probeCheck(probed: ProbeResult[], step: ProbeStep): Check {
  const found = probed.find((p) => p.step === step);
  if (!found) return { status: "fail", detail: "the gateway probe ended before this step" };
  return { status: found.status, detail: found.detail, ...(found.fix ? { fix: found.fix } : {}) };
}

/** What a plugin's check may read: the configuration and what the host's checks found. */
function doctorContext(config: MusterConfig, gatewayAgentIds: readonly string[]): DoctorContext {
  const running = runningInstance(config.home)?.url;
  return {
    home: config.home,
    workspace: resolveWorkspaceRoot(config.workspaceDir, config.home),
    databasePath: join(config.home, "muster.db"),
    runningServer: running ? reachableUrl(running) : null,
    serverHeaders: config.apiToken ? { authorization: `Bearer ${config.apiToken}` } : {},
    credential: (name) => hostCredential(config, name),
    openPostgres: (entities) => openPostgresFor(config.databaseUrl, entities),
    gatewayAgentIds: Object.freeze([...gatewayAgentIds]),
  };
}

/** A plugin's finding as a report line: only the fields a finding has (a plugin's extra ones are not printed). */
async function runContributed(check: DoctorCheck, context: DoctorContext): Promise<Check> {
  const { status, detail, fix } = await check.run(context);
  return { status, detail, ...(fix ? { fix } : {}) };
}

function homeWritable(home: string): Omit<CheckResult, "id" | "name"> {
  const fix = `make ${home} writable by this user, or set MUSTER_HOME to a directory that is`;
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const probe = join(home, `.doctor-${randomUUID()}`);
    writeFileSync(probe, "ok", { mode: 0o600 });
    rmSync(probe);
  } catch (error) {
    return { status: "fail", detail: `${home}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, fix };
  }
  const mode = statSync(home).mode & 0o777;
  return { status: "ok", detail: `${home}${mode & 0o077 ? ` (mode ${mode.toString(8)}; the server makes it 0700 at start)` : ""}` };
}

async function checkDatabase(config: MusterConfig, migrations: DoctorOptions["migrations"]): Promise<Omit<CheckResult, "id" | "name">> {
  if (config.databaseUrl) {
    // Team mode: the database link itself (PostgreSQL's module loaded only here), whether or not a server runs.
    const { checkPostgresLink } = await import("./postgres-database.ts");
    return checkPostgresLink(config.databaseUrl, migrations ?? []);
  }
  const path = join(config.home, "muster.db");
  const instance = runningInstance(config.home);
  if (instance?.url) {
    // Never open the file beside a running server: ask it.
    try {
      const res = await fetch(`${reachableUrl(instance.url)}/api/health`, {
        headers: config.apiToken ? { authorization: `Bearer ${config.apiToken}` } : {},
        signal: AbortSignal.timeout(5_000),
      });
      const health = (await res.json()) as { database?: string };
      if (health.database === "ok") return { status: "ok", detail: `served by the running server (pid ${instance.pid}, ${instance.url})` };
      return { status: "fail", detail: `the running server (pid ${instance.pid}) reports database ${health.database ?? `HTTP ${res.status}`}`, fix: "read the server log for the database fault (disk full, read-only, locked by another process)" };
    } catch (error) {
      return { status: "fail", detail: `pid ${instance.pid} holds MUSTER_HOME but does not answer at ${instance.url}: ${(error as Error).message}`, fix: "restart the server (muster start)" };
    }
  }
  if (instance) return { status: "ok", detail: `a server (pid ${instance.pid}) is starting on this MUSTER_HOME; not opened beside it` };
  if (!existsSync(path)) return { status: "ok", detail: `${path} does not exist yet; the first start creates and migrates it` };
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const check = db.pragma("quick_check", { simple: true });
    if (check !== "ok") return { status: "fail", detail: `quick_check: ${String(check)}`, fix: "restore the latest backup (muster restore) or move the damaged muster.db away" };
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'muster_migrations'").get();
    const applied = hasTable ? (db.prepare("SELECT id, plugin FROM muster_migrations").all() as { id: string; plugin: string }[]) : [];
    const known = new Map((migrations ?? []).map((p) => [p.pluginId, new Set(p.names.map((n) => `${p.pluginId}:${n}`))]));
    const foreign = applied.filter((row) => known.get(row.plugin) && !known.get(row.plugin)!.has(row.id));
    if (foreign.length) {
      return { status: "fail", detail: `applied migration ${foreign[0]!.id} is not shipped by this version (written by a newer Muster?)`, fix: "run the Muster version that wrote this database, or restore a backup made by this one" };
    }
    const appliedIds = new Set(applied.map((r) => r.id));
    const pending = [...known.values()].flatMap((set) => [...set]).filter((id) => !appliedIds.has(id));
    return { status: "ok", detail: `integrity ok, ${applied.length} migrations applied${pending.length ? `, ${pending.length} pending (applied at the next start)` : ""}` };
  } catch (error) {
    return { status: "fail", detail: `${path}: ${(error as Error).message}`, fix: "check the file's permissions, or restore a backup (muster restore)" };
  } finally {
    db?.close();
  }
}

function checkWorkspace(config: MusterConfig): Omit<CheckResult, "id" | "name"> {
  const root = resolveWorkspaceRoot(config.workspaceDir, config.home);
  if (!existsSync(root)) {
    return config.scaffoldWorkspace
      ? { status: "ok", detail: `${root} does not exist yet; the first start creates it from the template` }
      : { status: "fail", detail: `${root} does not exist`, fix: "create it, or set WORKSPACE_DIR to the agents' workspace" };
  }
  if (!statSync(root).isDirectory()) return { status: "fail", detail: `${root} is not a directory`, fix: "set WORKSPACE_DIR to a directory" };
  try {
    accessSync(root, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch {
    return { status: "fail", detail: `${root} is not readable and writable by this user`, fix: `fix the permissions of ${root}` };
  }
  return { status: "ok", detail: root };
}

function render(checks: CheckResult[], ok: boolean): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  const label: Record<CheckStatus, string> = { ok: "ok      ", warn: "warn    ", fail: "FAIL    ", skipped: "skipped ", disabled: "disabled" };
  const lines = checks.map((c) => {
    const line = `  ${label[c.status]}  ${c.name.padEnd(width)}  ${c.detail}`.trimEnd();
    return c.fix ? `${line}\n  ${" ".repeat(8)}  ${" ".repeat(width)}  fix: ${c.fix}` : line;
  });
  const failures = checks.filter((c) => c.status === "fail");
  const warnings = checks.filter((c) => c.status === "warn");
  const named = (c: CheckResult) => `${c.name}${c.fix ? ` — ${c.fix}` : ""}`;
  const summary = [
    ok ? (warnings.length ? "No broken link." : "All checks passed.") : `Broken link${failures.length > 1 ? "s" : ""}: ${failures.map(named).join("\n  ")}`,
    ...warnings.map((c) => `Warning: ${named(c)}`),
  ].join("\n");
  return `muster doctor\n${lines.join("\n")}\n\n${summary}\n`;
}
