// Everything a plugin runs besides its services declares what it needs, like a service:
// routes, start and stop hooks, gated actions and contributions (Backstage's registerInit).
// The host resolves every declared token at boot, before any route is mounted, so a missing
// or undeclared dependency stops the start with a clear error instead of failing the first
// request that needs it; and nothing reaches the container by a side door.
import type { PluginContext } from "./context.ts";
import type { ResolvedDeps, Tokens } from "./define-service.ts";
import type { GatedAction } from "./gate.ts";
import type { PluginRouter } from "./http.ts";

/** The tokens a declaration needs: `deps` must be there, `optionalDeps` are `undefined` when their plugin is absent. */
export interface Needs<D extends Tokens, O extends Tokens> {
  deps: D;
  optionalDeps?: O;
}

/** A plugin's routes with the services they use. */
export interface RoutesDeclaration<D extends Tokens = Tokens, O extends Tokens = {}> extends Needs<D, O> {
  /** Mounts the routes; every path must start with one of the plugin's `paths`. */
  mount(router: PluginRouter, deps: ResolvedDeps<D, O>, ctx: PluginContext): void;
}

/** A start or stop hook with the services it uses. */
export interface HookDeclaration<D extends Tokens = Tokens, O extends Tokens = {}> extends Needs<D, O> {
  run(deps: ResolvedDeps<D, O>, ctx: PluginContext): void | Promise<void>;
}

/**
 * A kind of external action that runs only after a human approves (DESIGN §8), built from
 * its deps once the database is open. This is the one way to declare one.
 */
export interface GatedActionDeclaration<P = any, D extends Tokens = Tokens, O extends Tokens = {}> extends Needs<D, O> {
  /** `<plugin id>.<action>`, e.g. `git.push`. */
  kind: string;
  /**
   * Only for a kind published without the plugin's prefix (DESIGN §14.6 names the dispatch
   * plugin's `task.review`; gateway-approvals keeps the gateway's own `openclaw.exec`): why it
   * keeps that name, as an error catalogue's `exempt` says why a code does. Any other kind must
   * start with `<plugin id>.`; the host refuses the start otherwise.
   */
  exemptFromPrefix?: string;
  create(deps: ResolvedDeps<D, O>): GatedAction<P>;
}

/**
 * Declares a plugin's routes and the services they use.
 *
 * @example
 * export const workRoutes = defineRoutes({
 *   deps: { work: WORK },
 *   mount: (router, { work }) => mountTaskRoutes(router, work),
 * });
 */
export function defineRoutes<const D extends Tokens, const O extends Tokens = {}>(declaration: RoutesDeclaration<D, O>): RoutesDeclaration<D, O> {
  return declaration;
}

/**
 * Declares a start (`onStart`) or stop (`onStop`) hook and the services it uses.
 *
 * @example
 * export const startChat = defineHook({
 *   deps: { runner: TURN_RUNNER },
 *   run: ({ runner }, ctx) => ctx.lifecycle.onStop(() => runner.stop()),
 * });
 */
export function defineHook<const D extends Tokens, const O extends Tokens = {}>(declaration: HookDeclaration<D, O>): HookDeclaration<D, O> {
  return declaration;
}

/**
 * Declares a gated action kind: what approving it does, and what running it needs.
 *
 * @example
 * export const pushAction = defineGatedAction({
 *   kind: "git.push",
 *   deps: { sync: GIT_SYNC },
 *   create: ({ sync }) => ({ describe: (p: PushPayload) => `Push ${p.branch}`, execute: (p) => sync.push(p) }),
 * });
 */
export function defineGatedAction<P, const D extends Tokens, const O extends Tokens = {}>(
  declaration: GatedActionDeclaration<P, D, O>,
): GatedActionDeclaration<P, D, O> {
  return declaration;
}
