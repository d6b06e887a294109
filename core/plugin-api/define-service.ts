import type { PluginContext } from "./context.ts";

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

/** How a service is created: once per host (`singleton`, the default) or on every resolve. */
export type ServiceScope = "singleton" | "transient";

export interface ServiceDefinition<T, D extends Record<string, ServiceToken<unknown>> = Record<string, ServiceToken<unknown>>> {
  token: ServiceToken<T>;
  deps: D;
  create: (deps: DepsOf<D>, ctx: PluginContext) => T;
  scope?: ServiceScope;
}

/**
 * Describes a service: its token, the tokens it depends on, and a factory taking one
 * typed `deps` object. Register it in a plugin's `register(ctx)` with `ctx.provide(def)`.
 * No decorators are involved, so a missing dependency is a clear error, never `undefined`.
 *
 * @example
 * export const TASKS = token<TaskService>("work.tasks");
 * export const taskService = defineService({
 *   token: TASKS,
 *   deps: { activities: ACTIVITIES },
 *   create: ({ activities }, ctx) => new TaskService({ activities, db: ctx.db, events: ctx.events }),
 * });
 */
export function defineService<T, const D extends Record<string, ServiceToken<unknown>>>(
  definition: ServiceDefinition<T, D>,
): ServiceDefinition<T, D> {
  return definition;
}
