// Why Muster could not start (or a plugin command could not run): the plugin graph, the
// configuration, the migrations, another server on this MUSTER_HOME, the port. None of
// these reaches HTTP, so each has status 500 by convention (docs/errors.md); the command
// line prints them as `muster: CODE: message`, without a stack trace.
import { catalogueErrors, defineErrors, MusterError } from "../plugin-api/errors.ts";

export const startErrors = defineErrors({
  CONFIG_INVALID: { status: 500, message: "Invalid {source}: {problems}" },
  PLUGIN_INVALID: { status: 500, message: "{plugin} is not a valid plugin: {reason}" },
  PLUGIN_DUPLICATE_ID: { status: 500, message: "Two plugins have the id \"{id}\"" },
  PLUGIN_HOST_INCOMPATIBLE: { status: 500, message: "Plugin \"{id}\" needs plugin API {range}; this host provides {version}" },
  PLUGIN_MISSING_DEPENDENCY: { status: 500, message: "Plugin \"{id}\" depends on \"{dependency}\", which is not loaded" },
  PLUGIN_DEPENDENCY_CYCLE: { status: 500, message: "Plugin dependency cycle: {cycle}" },
  PLUGIN_PATH_OVERLAP: { status: 500, message: "Plugin \"{id}\" claims {path}, which overlaps {other} of plugin \"{owner}\"" },
  PLUGIN_TABLE_PREFIX: { status: 500, message: "Plugin \"{id}\": {what} {name}, which does not carry its table prefix \"{prefix}\"" },
  PLUGIN_CONTRIBUTION_UNDECLARED: {
    status: 500,
    message: 'Plugin "{id}" contributes to "{point}" of plugin "{owner}" without declaring it: add "{owner}" to its dependsOn (or optionalDependsOn)',
  },
  PLUGIN_CONTRIBUTION_UNKNOWN_POINT: { status: 500, message: 'Plugin "{id}" contributes to "{point}", which plugin "{owner}" does not declare in its extensionPoints' },
  PLUGIN_ROUTE_OUTSIDE_PATHS: { status: 500, message: "Plugin \"{id}\" mounts {method} {path} outside its declared paths ({paths})" },
  DATABASE_UNREACHABLE: { status: 500, message: "Cannot use the database at {url} (DATABASE_URL): {reason}" },
  MIGRATION_FAILED: { status: 500, message: "Migration {migration} failed and was rolled back: {reason}" },
  MIGRATION_UNKNOWN_APPLIED: {
    status: 500,
    message: "The database has migration {migration}, which plugin \"{plugin}\" does not ship: it was written by a newer or different version of that plugin",
  },
  INSTANCE_RUNNING: {
    status: 500,
    message: "Muster is already running on this MUSTER_HOME ({home}): {holder}. Stop it first, or set MUSTER_HOME to another directory.",
  },
  PORT_IN_USE: { status: 500, message: "Port {port} is in use on {host} (PORT={port}); set PORT to another port" },
});

/**
 * Whether `error` is one of {@link startErrors}, or a plugin's invalid error catalogue
 * (`catalogueErrors`, thrown when its module loads): the command line prints them as one line.
 */
export function isStartError(error: unknown): error is MusterError {
  return error instanceof MusterError && (Object.hasOwn(startErrors, error.code) || Object.hasOwn(catalogueErrors, error.code));
}

/** The listen error as PORT_IN_USE when it is one a user can fix by choosing another port. */
export function listenError(error: unknown, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") return startErrors.PORT_IN_USE({ port, host }, { cause: error });
  return error;
}
