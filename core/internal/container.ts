// Dependency injection over tsyringe without decorators: each host has its own child
// container, and services are factory providers built from `defineService` definitions.
// Like Fastify's dependency check, a plugin may only resolve what it declared: its own
// tokens, the host's, and those of plugins in its dependsOn/optionalDependsOn.
import { container as globalContainer, instanceCachingFactory, type DependencyContainer } from "tsyringe";
import { containerErrors } from "./container-errors.ts";
import type { ResolvedDeps, ServiceDefinition, ServiceToken, Tokens } from "../plugin-api/define-service.ts";
import type { Needs } from "../plugin-api/declare.ts";

/** Who is resolving: a plugin and the plugins it declared, or the host itself (no check). */
export interface Requester {
  plugin: string;
  /** The plugin's dependsOn and optionalDependsOn. */
  declared: ReadonlySet<string>;
}

/** Owner name of the host's own services. */
const HOST = "host";

export class ServiceContainer {
  private readonly container: DependencyContainer = globalContainer.createChildContainer();
  private readonly owners = new Map<string, string>();
  /** Host services, built per resolving plugin (its child logger, its configuration). */
  private readonly hostServices = new Map<string, (plugin: string) => unknown>();
  /** Every registered service's needs, checked at boot by {@link verify}. */
  private readonly registered: { needs: Needs<Tokens, Tokens>; requester: Requester; neededBy: string }[] = [];

  /** Provides a host service; `value` receives the id of the plugin resolving it. */
  provideHost<T>(token: ServiceToken<T>, value: (plugin: string) => T): void {
    this.owners.set(token.key, HOST);
    this.hostServices.set(token.key, value);
  }

  register(definition: ServiceDefinition<unknown, any, any>, requester: Requester): void {
    const key = definition.token?.key;
    if (typeof key !== "string") throw containerErrors.SERVICE_WITHOUT_TOKEN({ plugin: requester.plugin });
    const owner = this.owners.get(key);
    if (owner) throw containerErrors.SERVICE_PROVIDED_TWICE({ token: key, first: owner, second: requester.plugin });
    this.owners.set(key, requester.plugin);
    this.registered.push({ needs: { deps: definition.deps ?? {}, optionalDeps: definition.optionalDeps ?? {} }, requester, neededBy: key });
    // Dependencies resolve as the providing plugin, whoever asked for the service.
    const factory = () => definition.create(this.resolveNeeds({ deps: definition.deps ?? {}, optionalDeps: definition.optionalDeps ?? {} }, requester, key) as never);
    this.container.register(key, {
      useFactory: definition.scope === "transient" ? factory : instanceCachingFactory(factory),
    });
  }

  /**
   * Provides a value computed on first resolve (an extension point's contributions), owned by
   * `owner` like a service that plugin registered.
   */
  provideComputed<T>(token: ServiceToken<T>, owner: string, compute: () => T): void {
    const first = this.owners.get(token.key);
    if (first) throw containerErrors.SERVICE_PROVIDED_TWICE({ token: token.key, first, second: owner });
    this.owners.set(token.key, owner);
    this.container.register(token.key, { useFactory: instanceCachingFactory(compute) });
  }

  /** Resolves a declaration's `deps` (each must be there) and `optionalDeps` (`undefined` when absent), as `requester`. */
  resolveNeeds<D extends Tokens, O extends Tokens>(needs: Needs<D, O>, requester: Requester, neededBy: string): ResolvedDeps<D, O> {
    const deps: Record<string, unknown> = {};
    for (const [name, dep] of Object.entries<ServiceToken<unknown>>(needs.deps ?? {})) deps[name] = this.resolve(dep, requester, `${neededBy}.deps.${name}`);
    for (const [name, dep] of Object.entries<ServiceToken<unknown>>(needs.optionalDeps ?? {})) {
      deps[name] = this.has(dep) ? this.resolve(dep, requester, `${neededBy}.optionalDeps.${name}`) : undefined;
    }
    return deps as ResolvedDeps<D, O>;
  }

  /** Records a declaration's needs (routes, a hook, a gated action) so that {@link verify} checks them at boot. */
  declare(needs: Needs<Tokens, Tokens>, requester: Requester, neededBy: string): void {
    this.registered.push({ needs, requester, neededBy });
  }

  /**
   * Checks, without building anything, that every declared dependency of every service and
   * declaration is provided and visible to its plugin: a bad graph stops the start here with
   * the first problem, instead of failing the first request that needs the service.
   */
  verify(): void {
    for (const { needs, requester, neededBy } of this.registered) {
      for (const [name, dep] of Object.entries<ServiceToken<unknown>>(needs.deps ?? {})) {
        this.checkVisible(dep, requester);
        if (!this.owners.has(dep.key)) throw containerErrors.SERVICE_NOT_PROVIDED({ token: dep.key, neededBy: `${neededBy}.deps.${name}` });
      }
      for (const dep of Object.values<ServiceToken<unknown>>(needs.optionalDeps ?? {})) if (this.owners.has(dep.key)) this.checkVisible(dep, requester);
    }
  }

  has(token: ServiceToken<unknown>): boolean {
    return this.owners.has(token.key);
  }

  /** Resolves a token; with a requester, only one it may see (see {@link Requester}). */
  resolve<T>(token: ServiceToken<T>, requester?: Requester, neededBy = requester ? `plugin "${requester.plugin}"` : "the host"): T {
    if (requester) this.checkVisible(token, requester);
    const host = this.hostServices.get(token.key);
    if (host) return host(requester?.plugin ?? HOST) as T;
    if (!this.owners.has(token.key)) throw containerErrors.SERVICE_NOT_PROVIDED({ token: token.key, neededBy });
    return this.container.resolve<T>(token.key);
  }

  /** Throws `TOKEN_NOT_DECLARED` unless `requester` may see the token (see {@link Requester}). */
  private checkVisible(token: ServiceToken<unknown>, requester: Requester): void {
    // A token belongs to the plugin its key names (`vault.secrets`: vault) and to whoever
    // provides it, so a stand-in provider (tests) plays the named plugin's part.
    const named = pluginOf(token.key);
    const provider = this.owners.get(token.key) ?? named;
    const visible = (owner: string) => owner === HOST || owner === requester.plugin || requester.declared.has(owner);
    if (!visible(named) && !visible(provider)) throw containerErrors.TOKEN_NOT_DECLARED({ plugin: requester.plugin, token: token.key, owner: provider });
  }

  dispose(): void {
    this.container.clearInstances();
  }
}

/** The plugin a token names by convention (`'<pluginId>.<name>'`), for tokens nobody provides. */
function pluginOf(key: string): string {
  const dot = key.indexOf(".");
  return dot > 0 ? key.slice(0, dot) : key;
}
