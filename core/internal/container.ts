// Dependency injection over tsyringe without decorators: each host has its own child
// container, and services are factory providers built from `defineService` definitions.
import { container as globalContainer, instanceCachingFactory, type DependencyContainer } from "tsyringe";
import type { PluginContext } from "../plugin-api/context.ts";
import type { ServiceDefinition, ServiceToken } from "../plugin-api/define-service.ts";

export class ServiceContainer {
  private readonly container: DependencyContainer = globalContainer.createChildContainer();
  private readonly owners = new Map<string, string>();

  register(definition: ServiceDefinition<unknown, any>, ctx: PluginContext): void {
    const key = definition.token?.key;
    if (typeof key !== "string") throw new Error(`Plugin "${ctx.id}" registered a service without a token`);
    const owner = this.owners.get(key);
    if (owner) throw new Error(`Service "${key}" is provided twice (by "${owner}" and "${ctx.id}")`);
    this.owners.set(key, ctx.id);
    const factory = () => {
      const deps: Record<string, unknown> = {};
      for (const [name, dep] of Object.entries(definition.deps ?? {})) deps[name] = this.resolve(dep as ServiceToken<unknown>, `${key}.deps.${name}`);
      return definition.create(deps as never, ctx);
    };
    this.container.register(key, {
      useFactory: definition.scope === "transient" ? factory : instanceCachingFactory(factory),
    });
  }

  has(token: ServiceToken<unknown>): boolean {
    return this.owners.has(token.key);
  }

  resolve<T>(token: ServiceToken<T>, neededBy = "a plugin"): T {
    if (!this.owners.has(token.key)) {
      throw new Error(`No service "${token.key}" is registered (needed by ${neededBy}); is the plugin that provides it loaded and listed in dependsOn?`);
    }
    return this.container.resolve<T>(token.key);
  }

  dispose(): void {
    this.container.clearInstances();
  }
}
