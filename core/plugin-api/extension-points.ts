// Extension points (Backstage's registerExtensionPoint): a plugin declares a typed point, and
// other plugins contribute to it, so a plugin can add to another plugin's surface (a metric
// family, a console panel, routes under its prefix) without either importing the other's
// classes. The host itself owns the points for its surfaces (hostPoints: MCP tools, doctor
// checks). A contributor lists the owner in dependsOn or optionalDependsOn; with an optional
// owner that is not loaded, the contribution is simply not made.
import { token, type ResolvedDeps, type ServiceToken, type Tokens } from "./define-service.ts";
import type { Needs } from "./declare.ts";

/** One contribution as the point's owner receives it: the value and who contributed it. */
export interface Contributed<T> {
  readonly plugin: string;
  readonly value: T;
}

/** A typed point other plugins contribute `T` values to. */
export interface ExtensionPoint<T> {
  /** `<owner plugin id>.<name>` (`metrics.families`), or `host.<name>` for the host's own. */
  readonly id: string;
  /**
   * What the owner lists in a service's (or routes', or hook's) `deps` to receive every
   * contribution, in plugin start order.
   */
  readonly contributions: ServiceToken<readonly Contributed<T>[]>;
}

/** A contribution a plugin makes: a plain value, or one built from the contributor's own deps. */
export type Contribution<T = any> =
  | { readonly point: ExtensionPoint<T>; readonly value: T }
  | ({ readonly point: ExtensionPoint<T>; create(deps: any): T } & Needs<Tokens, Tokens>);

const POINT_ID = /^[a-z][a-z0-9-]*\.[a-zA-Z][a-zA-Z0-9-]*$/;

/**
 * Declares an extension point. The owner lists it in its definition's `extensionPoints`.
 *
 * @example
 * export const METRIC_FAMILIES = extensionPoint<MetricSource>("metrics.families");
 */
export function extensionPoint<T>(id: string): ExtensionPoint<T> {
  if (!POINT_ID.test(id)) throw new Error(`Extension point id "${id}" must look like <plugin id>.<name>`);
  return Object.freeze({ id, contributions: token<readonly Contributed<T>[]>(`${id}.contributions`) });
}

/**
 * A contribution of a plain value (a description, a static check): list it in the
 * contributing plugin's `contributions`.
 *
 * @example
 * contributions: [contribute(hostPoints.mcpTools, { name: "notes_list", title: "List notes", scope: "read", method: "GET", path: "/api/notes" })]
 */
export function contribute<T>(point: ExtensionPoint<T>, value: T): Contribution<T> {
  return { point, value };
}

/**
 * A contribution built from the contributor's own services once the database is open (a
 * metric family that reads the plugin's store, routes that call its service).
 *
 * @example
 * contributeWith(METRIC_FAMILIES, { deps: { notes: NOTES }, create: ({ notes }) => ({ collect: () => notes.metrics() }) })
 */
export function contributeWith<T, const D extends Tokens, const O extends Tokens = {}>(
  point: ExtensionPoint<T>,
  declaration: Needs<D, O> & { create(deps: ResolvedDeps<D, O>): T },
): Contribution<T> {
  return { point, ...declaration } as Contribution<T>;
}

/** The plugin (or `host`) that owns a point. */
export function ownerOf(point: ExtensionPoint<unknown>): string {
  return point.id.slice(0, point.id.indexOf("."));
}
