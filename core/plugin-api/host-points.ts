// The host's own extension points: surfaces the host serves (the MCP endpoint, `muster
// doctor`) whose content comes from plugins, so that core knows no feature. Their
// contributions are plain values (`contribute`, not `contributeWith`): `muster doctor` and
// `muster mcp` read them from the plugin definitions without starting a server.
import { extensionPoint } from "./extension-points.ts";
import type { EntitySchema } from "@mikro-orm/core";
import type { Database, HostCredential } from "./context.ts";

/** Read tools work in every MCP session; write tools change the workspace and need the write scope. */
export type McpScope = "read" | "write";

/**
 * An MCP tool: exactly one HTTP API operation, named by method and path. The host refuses
 * a tool whose operation needs the human's session token (deciding approvals, deleting), so
 * no MCP client can decide an approval.
 */
export interface McpToolSpec {
  /** snake_case, unique across plugins (`tasks_list`). */
  name: string;
  title: string;
  scope: McpScope;
  method: "GET" | "POST" | "PATCH";
  /** The OpenAPI path (`{id}` for path parameters). */
  path: string;
}

/** `warn`: an optional part is not set up; reported, never a failure. */
export type DoctorStatus = "ok" | "warn" | "fail";

/** What one doctor check found; `fix` says what to do when it is not ok. */
export interface DoctorFinding {
  status: DoctorStatus;
  detail: string;
  fix?: string;
}

/** What a doctor check may read: the configuration and what the host's own checks found. */
export interface DoctorContext {
  /** `MUSTER_HOME`. */
  home: string;
  /** The workspace root. */
  workspace: string;
  /** The database file (`<home>/muster.db`); never open it while `runningServer` is set. */
  databasePath: string;
  /** The running server's reachable URL when one holds this home: ask it over HTTP instead. */
  runningServer: string | null;
  /** Headers for that server's API (the API token when one is configured). */
  serverHeaders: Record<string, string>;
  /** A credential of the host configuration, or null when unset. */
  credential(name: HostCredential): string | null;
  /** With `DATABASE_URL`: that PostgreSQL database, opened with `entities` (close it when done); null on the SQLite file (`databasePath`). */
  openPostgres(entities: EntitySchema<any, any>[]): Promise<(Database & { close(): Promise<void> }) | null>;
  /** The agent ids the gateway's `agents.list` returned (empty when it was not reached). */
  gatewayAgentIds: readonly string[];
}

/**
 * A `muster doctor` check a plugin contributes. Host checks run first (config, home,
 * database, workspace, the gateway steps); contributed ones follow in plugin order, each
 * skipped when a check it `needs` did not pass.
 */
export interface DoctorCheck {
  /** Unique id (`crew`, `vault`); `needs` names these or the host's (`config`, `home`, `database`, `workspace`, `gateway.agents`). */
  id: string;
  name: string;
  needs?: string[];
  /** An optional part: runs after every check that is not optional, so it never hides a diagnosis. */
  optional?: boolean;
  run(context: DoctorContext): DoctorFinding | Promise<DoctorFinding>;
}

/**
 * Where the owner comes from when `MUSTER_OWNER` (config `owner`) is not set: the host asks
 * each contribution in plugin order, before any plugin runs, and takes the first name one
 * gives (else "owner"). Synchronous and side-effect free: it runs during the boot.
 */
export interface OwnerSource {
  /** The owner's name from what this plugin knows of the workspace (the organisation file), or null. */
  owner(workspaceRoot: string): string | null;
}

/** The points the host owns; contributing to them needs no dependency declaration. */
export const hostPoints = {
  /** Who the owner is, when the configuration does not say (the agents plugin: the organisation file's `org.owner`). */
  ownerSources: extensionPoint<OwnerSource>("host.ownerSources"),
  /** Tools of the MCP endpoint (`/mcp`) and of `muster mcp`. */
  mcpTools: extensionPoint<McpToolSpec>("host.mcpTools"),
  /** Checks of `muster doctor`. */
  doctorChecks: extensionPoint<DoctorCheck>("host.doctorChecks"),
};
