// Dependency injection over tsyringe without decorators: each host has its own child
// container, and services are factory providers built from `defineService` definitions.
// Like Fastify's dependency check, a plugin may only resolve what it declared: its own
// tokens, the host's, and those of plugins in its dependsOn/optionalDependsOn.
import { container as globalContainer, instanceCachingFactory, type DependencyContainer } from "tsyringe";
import { containerErrors } from "./container-errors.ts";
import type { ServiceDefinition, ServiceToken } from "../plugin-api/define-service.ts";

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
    // Dependencies resolve as the providing plugin, whoever asked for the service.
    const factory = () => {
      const deps: Record<string, unknown> = {};
      for (const [name, dep] of Object.entries<ServiceToken<unknown>>(definition.deps ?? {})) deps[name] = this.resolve(dep, requester, `${key}.deps.${name}`);
      for (const [name, dep] of Object.entries<ServiceToken<unknown>>(definition.optionalDeps ?? {})) {
        deps[name] = this.has(dep) ? this.resolve(dep, requester, `${key}.optionalDeps.${name}`) : undefined;
      }
      return definition.create(deps as never);
    };
    this.container.register(key, {
      useFactory: definition.scope === "transient" ? factory : instanceCachingFactory(factory),
    });
  }

  has(token: ServiceToken<unknown>): boolean {
    return this.owners.has(token.key);
  }

  /** Resolves a token; with a requester, only one it may see (see {@link Requester}). */
  resolve<T>(token: ServiceToken<T>, requester?: Requester, neededBy = requester ? `plugin "${requester.plugin}"` : "the host"): T {
    if (requester) {
      // A token belongs to the plugin its key names (`vault.secrets`: vault) and to whoever
      // provides it, so a stand-in provider (tests) plays the named plugin's part.
      const named = pluginOf(token.key);
      const provider = this.owners.get(token.key) ?? named;
      const visible = (owner: string) => owner === HOST || owner === requester.plugin || requester.declared.has(owner);
      if (!visible(named) && !visible(provider)) throw containerErrors.TOKEN_NOT_DECLARED({ plugin: requester.plugin, token: token.key, owner: provider });
    }
    const host = this.hostServices.get(token.key);
    if (host) return host(requester?.plugin ?? HOST) as T;
    if (!this.owners.has(token.key)) throw containerErrors.SERVICE_NOT_PROVIDED({ token: token.key, neededBy });
    return this.container.resolve<T>(token.key);
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
