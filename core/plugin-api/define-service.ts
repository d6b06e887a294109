/** A typed key for a service in the host container. Named `'<pluginId>.<name>'`. */
export interface ServiceToken<T> {
  readonly key: string;
  /** Phantom field carrying the service type; never set. */
  readonly __type?: T;
}

/** Creates a service token. */
export function token<T>(key: string): ServiceToken<T> {
  return Object.freeze({ key }) as ServiceToken<T>;
}

type DepsOf<D> = { [K in keyof D]: D[K] extends ServiceToken<infer T> ? T : never };
type OptionalDepsOf<O> = { [K in keyof O]: (O[K] extends ServiceToken<infer T> ? T : never) | undefined };
/** A map of dependency names to tokens (a `deps` or `optionalDeps` object). */
export type Tokens = Record<string, ServiceToken<unknown>>;
/** What a `deps`/`optionalDeps` pair resolves to: each token's service, optional ones possibly `undefined`. */
export type ResolvedDeps<D, O = {}> = DepsOf<D> & OptionalDepsOf<O>;

/** How a service is created: once per host (`singleton`, the default) or on every resolve. */
export type ServiceScope = "singleton" | "transient";

export interface ServiceDefinition<T, D extends Tokens = Tokens, O extends Tokens = {}> {
  token: ServiceToken<T>;
  /**
   * Everything the service receives: other plugins' tokens (their plugin listed in
   * `dependsOn`), this plugin's own tokens and `hostTokens.*` (db, events, logger, ...).
   */
  deps: D;
  /** Tokens of plugins listed in `optionalDependsOn`: `undefined` when that plugin is absent. */
  optionalDeps?: O;
  /** Builds the service from its resolved deps only; no context, so nothing reaches it by a side door. */
  create: (deps: ResolvedDeps<D, O>) => T;
  scope?: ServiceScope;
}

/**
 * Describes a service: its token, the tokens it depends on, and a factory taking one
 * typed `deps` object. Register it in a plugin's `register(ctx)` with `ctx.provide(def)`.
 * No decorators are involved, so a missing dependency is a clear error, never `undefined`,
 * and a token of a plugin the caller did not declare is refused (`TOKEN_NOT_DECLARED`).
 *
 * @example
 * export const TASKS = token<TaskList>("work.tasks");
 * export const taskService = defineService({
 *   token: TASKS,
 *   deps: { activities: ACTIVITIES, db: hostTokens.db, events: hostTokens.events },
 *   create: (deps) => new TaskService(deps),
 * });
 */
export function defineService<T, const D extends Tokens, const O extends Tokens = {}>(
  definition: ServiceDefinition<T, D, O>,
): ServiceDefinition<T, D, O> {
  return definition;
}
