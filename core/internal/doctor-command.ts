// `muster doctor` (DESIGN §14.1): checks every link Muster depends on, in order, and names
// the first broken one with what to do. Read-only towards a running server: its database
// is checked through its /api/health, never opened beside it.
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync, accessSync, constants } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { loadConfig, type MusterConfig } from "./config.ts";
import { isStartError } from "./start-errors.ts";
import { packageVersion } from "./package-version.ts";
import { reachableUrl, runningInstance } from "./instance-lock.ts";
import { resolveWorkspaceRoot } from "./workspace/paths.ts";
import { loadDeviceIdentity, type DeviceIdentity } from "./gateway/device-identity.ts";
import { wantsDevice } from "./gateway/handshake.ts";
import { probeGateway, type ProbeStep } from "./gateway/probe.ts";
import { EXIT, parseCommandArgs, runCommand, type CliCommand, type CommandStreams } from "./cli/command.ts";

export interface DoctorOptions {
  /** Read instead of `process.env` (tests). */
  env?: NodeJS.ProcessEnv;
  /** The migrations a current database has (the built-in plugins'), by plugin id. */
  migrations?: { pluginId: string; names: string[] }[];
}

export type CheckStatus = "ok" | "fail" | "skipped" | "disabled";

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

Checks, in order, every link Muster depends on and names the first broken one with what to
do: config, MUSTER_HOME writable, database and migrations, workspace, vault key, then the
OpenClaw gateway: TCP reachable, WebSocket upgrade, connect.challenge, token accepted,
scopes granted, protocol version, agents.list. Checks after a failure are skipped; with
GATEWAY_URL=off the gateway checks say "disabled". A running server is never disturbed: its
database is checked through its /api/health.

  --json    a machine-readable report: { ok, checks: [{ id, name, status, detail, fix? }] }

Exit codes: 0 every check passed; 1 a check failed; 2 usage error.`;

export function doctorCommand(options: DoctorOptions = {}): CliCommand {
  const command: CliCommand = {
    name: "doctor",
    usage: [{ form: "doctor [--json]", summary: "check config, home, database, workspace, vault key and the gateway link" }],
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

async function runChecks(deps: DoctorOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const failed = () => results.some((r) => r.status === "fail");
  const add = (id: string, name: string, run: () => Omit<CheckResult, "id" | "name">) => {
    if (failed()) return void results.push({ id, name, status: "skipped", detail: "not checked (an earlier check failed)" });
    try {
      results.push({ id, name, ...run() });
    } catch (error) {
      results.push({ id, name, status: "fail", detail: (error as Error).message });
    }
  };

  let config: MusterConfig | undefined;
  add("config", "config", () => {
    try {
      config = loadConfig(deps.env ?? process.env);
    } catch (error) {
      if (!isStartError(error)) throw error;
      return { status: "fail", detail: error.message, fix: "fix the named environment variable or muster.config.json field (README: Configuration)" };
    }
    return { status: "ok", detail: `MUSTER_HOME ${config.home}, GATEWAY_URL ${config.gatewayUrl}` };
  });
  add("home", "MUSTER_HOME writable", () => homeWritable(config!.home));
  const databaseCheck = failed() ? undefined : await checkDatabase(config!, deps.migrations);
  add("database", "database and migrations", () => databaseCheck!);
  add("workspace", "workspace", () => checkWorkspace(config!));
  add("vault", "vault key", () =>
    config!.vaultKey
      ? { status: "ok", detail: "VAULT_KEY is set" }
      : config!.gatewayToken
        ? { status: "ok", detail: "VAULT_KEY is not set; the vault uses GATEWAY_TOKEN as its passphrase" }
        : { status: "fail", detail: "neither VAULT_KEY nor GATEWAY_TOKEN is set: the vault stays locked", fix: "set VAULT_KEY to a long passphrase (and keep it: secrets cannot be read without it)" },
  );

  if (!config || config.gatewayUrl === "off") {
    for (const c of GATEWAY_CHECKS) {
      if (failed()) results.push({ id: `gateway.${c.step}`, name: c.name, status: "skipped", detail: "not checked (an earlier check failed)" });
      else results.push({ id: `gateway.${c.step}`, name: c.name, status: "disabled", detail: "GATEWAY_URL=off" });
    }
    return results;
  }
  if (failed()) {
    for (const c of GATEWAY_CHECKS) results.push({ id: `gateway.${c.step}`, name: c.name, status: "skipped", detail: "not checked (an earlier check failed)" });
    return results;
  }
  let device: DeviceIdentity | null = null;
  if (wantsDevice(config.gatewayDeviceIdentity, config.gatewayUrl)) {
    try {
      device = loadDeviceIdentity(config.home);
    } catch (error) {
      results.push({ id: "gateway.tcp", name: GATEWAY_CHECKS[0]!.name, status: "fail", detail: `the gateway device identity cannot be loaded: ${(error as Error).message}`, fix: "remove $MUSTER_HOME/gateway-device.json to create a new one (it must be paired again)" });
    }
  }
  const probed = failed() ? [] : await probeGateway({ url: config.gatewayUrl, token: config.gatewayToken, scopes: config.gatewayScopes, version: packageVersion, device });
  for (const c of GATEWAY_CHECKS) {
    if (results.some((r) => r.id === `gateway.${c.step}`)) continue;
    const found = probed.find((p) => p.step === c.step);
    if (found && !failed()) results.push({ id: `gateway.${c.step}`, name: c.name, status: found.status, detail: found.detail, ...(found.fix ? { fix: found.fix } : {}) });
    else results.push({ id: `gateway.${c.step}`, name: c.name, status: "skipped", detail: "not checked (an earlier check failed)" });
  }
  return results;
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
  const label: Record<CheckStatus, string> = { ok: "ok      ", fail: "FAIL    ", skipped: "skipped ", disabled: "disabled" };
  const lines = checks.map((c) => {
    const line = `  ${label[c.status]}  ${c.name.padEnd(width)}  ${c.status === "skipped" ? "" : c.detail}`.trimEnd();
    return c.fix ? `${line}\n  ${" ".repeat(8)}  ${" ".repeat(width)}  fix: ${c.fix}` : line;
  });
  const firstFailure = checks.find((c) => c.status === "fail");
  const summary = ok ? "All checks passed." : `Broken link: ${firstFailure!.name}${firstFailure!.fix ? ` — ${firstFailure!.fix}` : ""}`;
  return `muster doctor\n${lines.join("\n")}\n\n${summary}\n`;
}
