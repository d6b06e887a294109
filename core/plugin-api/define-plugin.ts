import type { z } from "zod";
import type { EntitySchema } from "@mikro-orm/core";
import type { Database, HostCredential, PluginContext } from "./context.ts";
import type { PluginRouter } from "./http.ts";
import type { Migration } from "./migrations.ts";
import type { GatedActionDeclaration, HookDeclaration, RoutesDeclaration } from "./declare.ts";
import type { Contribution, ExtensionPoint } from "./extension-points.ts";
import type { ServerClient } from "./command-line.ts";

/**
 * A plugin is a plain description the host can inspect (id, version, host range,
 * dependencies, owned paths) before running any of its code.
 */
export interface PluginDefinition<C = any> {
  /**
   * kebab-case; error code prefix, log field `plugin=<id>`, and table prefix: the id with `-`
   * turned into `_`, then `_` (`release-notes` → `release_notes_`). The host refuses to start
   * when an entity's table or a table/index a migration creates, alters or drops lacks it.
   */
  id: string;
  /** The plugin's own semver version. */
  version: string;
  /** Semver range of the plugin API it was built for (`^1.0.0`). */
  host: string;
  /** Plugins that must be present; they start before this one. */
  dependsOn?: string[];
  /** Plugins started before this one when present. */
  optionalDependsOn?: string[];
  /** Route prefixes this plugin owns; the host refuses overlaps between plugins. */
  paths?: string[];
  /** zod schema for the plugin's section of `muster.config.json`, with defaults. */
  config?: z.ZodType<C>;
  /** MikroORM entities (`defineEntity`). */
  entities?: EntitySchema<any, any>[];
  /** Schema migrations, applied in order. */
  migrations?: Migration[];
  /** DI only (`ctx.provide(...)`); no I/O. */
  register?(ctx: PluginContext<C>): void;
  /**
   * Mounts routes; every path must start with one of `paths`. Declare what they use with
   * `defineRoutes({ deps, mount })`; the plain function form is for routes that use nothing.
   */
  routes?: RoutesDeclaration<any, any> | ((router: PluginRouter, ctx: PluginContext<C>) => void);
  /** Runs after every plugin's routes are mounted, in start order (`defineHook({ deps, run })`). */
  onStart?: HookDeclaration<any, any> | ((ctx: PluginContext<C>) => void | Promise<void>);
  /** Runs at shutdown, in reverse start order. */
  onStop?: HookDeclaration<any, any> | ((ctx: PluginContext<C>) => void | Promise<void>);
  /** Gated action kinds (`defineGatedAction`), built once the database is open; the one way to declare one. */
  gatedActions?: GatedActionDeclaration<any, any, any>[];
  /** Points this plugin owns and other plugins contribute to (`extensionPoint`). */
  extensionPoints?: ExtensionPoint<any>[];
  /** What this plugin adds to other plugins' or the host's points (`contribute`, `contributeWith`). */
  contributions?: Contribution<any>[];
  /** `muster <name> ...` sub-commands; listed by `muster --help`. They run without a server. */
  commands?: PluginCommand[];
}

/**
 * A `muster` sub-command a plugin contributes (as Hardhat plugins contribute tasks).
 * `run` should import its implementation lazily (`(await import("./cli/x.ts")).run(...)`)
 * so that listing commands loads none of it.
 */
export interface PluginCommand {
  /** The first word after `muster`; must not clash with the host's or another plugin's commands. */
  name: string;
  /** Shown in `muster --help`, e.g. `vault rotate`. */
  usage: string;
  /** One line for `muster --help`. */
  summary: string;
  /** What `muster <name> --help` prints (also after a sub-command); by default `Usage: muster <usage>` and the summary. */
  help?: string;
  /**
   * Runs with the words after `name`; resolves to the exit code (0 ok, 1 failure, 2 usage).
   * A thrown `UsageError` prints the reason and the help on stderr (exit 2); a thrown coded
   * error (a MusterError, the server's refusal) prints `muster <name>: CODE: message` (exit 1).
   */
  run(args: string[], io: CommandIo): Promise<number>;
}

/** What a plugin command gets from the CLI: the configured home and credentials, the running server, and the process streams. */
export interface CommandIo {
  /** `MUSTER_HOME`. */
  home: string;
  /** A credential of the host configuration, or null when unset (as `ctx.host.credential`). */
  credential(name: HostCredential): string | null;
  /** The reachable URL of the server running on this home, or null: a command that needs the server asks it over HTTP. */
  runningServer: string | null;
  /** Headers for that server's API (the API token when one is configured); never the human's session token. */
  serverHeaders: Record<string, string>;
  env: NodeJS.ProcessEnv;
  /**
   * With `DATABASE_URL` (team mode): that PostgreSQL database, opened with `entities` for the
   * command's own statements (`atomically`, the store kit); close it when done. `null` on the
   * embedded SQLite file (`<home>/muster.db`), which a command opens itself.
   */
  openPostgres(entities: EntitySchema<any, any>[]): Promise<(Database & { close(): Promise<void> }) | null>;
  /** A client of the running server of this MUSTER_HOME (its url from the instance lock, the API token when configured). */
  server(): ServerClient;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * Declares a plugin. The returned object is the definition itself; keep the plugin's
 * `index.ts` to this call and put logic in the files it points to.
 *
 * @example
 * export const notesPlugin = definePlugin({
 *   id: "notes", version: "1.0.0", host: "^1.0.0",
 *   paths: ["/api/notes"],
 *   routes: (router, ctx) => mountNoteRoutes(router, ctx),
 * });
 */
export function definePlugin<C>(definition: PluginDefinition<C>): PluginDefinition<C> {
  return definition;
}
