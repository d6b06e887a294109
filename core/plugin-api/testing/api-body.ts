// The body a route answers, typed from the server's own OpenAPI (the generated SDK), for tests
// that call a route with `h.json` because they assert its exact status or a refusal.
//
// `h.json("/api/tasks/" + …)` needs no annotation: the call's literal path and method are looked
// up in the SDK's route tree (`RouteTree`, generated with the operations), segment by segment,
// so `/api/tasks/${id}/comments` is `getTasksCommentsById`'s answer. A path the OpenAPI does not
// list (a test plugin's own route, a path held in a `string` variable) gives `Unlisted`, the
// error envelope and nothing else (so does a route answering no JSON, HTML or metrics): the
// test names the type it expects (`h.json<ApiBody<"op">>`, or a local type).
import type { OperationName, Operations, RouteTree } from "@muster/sdk/client";
import type { OpenApiDocument } from "./openapi.ts";

/** The server's error envelope. */
export interface ApiErrorBody {
  code: string;
  message: string;
  details?: unknown;
}

/** A route's answer: the success body when the status is 2xx, else the error envelope `{ ok: false, error }` (so a test can assert a refusal's status and code). */
export type Answer<T> = T & { ok?: boolean; error?: ApiErrorBody };

/** `h.json<ApiBody<"getTasks">>("/api/tasks")`: the success schema of the route, plus `error` when it refused. */
export type ApiBody<K extends OperationName> = Answer<Operations[K]["response"]>;

/** The path's segments after the leading slash, without the query: `/api/tasks/${string}?x=1` → `["api", "tasks", string]`. */
type Segments<P extends string> = P extends `${infer Path}?${string}` ? Split<Path> : Split<P>;
type Split<P extends string> = P extends `${infer Head}/${infer Rest}` ? [Head, ...Split<Rest>] : [P];

/** Walks the route tree: a literal segment first, else the path parameter (`{}`); `never` when no route serves the path. */
type Walk<Node, S extends string[]> = S extends [infer Head extends string, ...infer Rest extends string[]]
  ? (Head extends keyof Node ? Walk<Node[Head], Rest> : never) extends infer Literal
    ? [Literal] extends [never]
      ? "{}" extends keyof Node
        ? Walk<Node["{}"], Rest>
        : never
      : Literal
    : never
  : Node extends { $: infer Name } ? Name : never;

/** The operation serving `method path` (`"getTasksById"` for `GET /api/tasks/${string}`), `never` when the OpenAPI lists none. */
export type OperationAt<M extends string, P extends string> = string extends P
  ? never
  : Uppercase<M> extends keyof RouteTree
    ? P extends `/${infer Path}`
      ? Walk<RouteTree[Uppercase<M>], Segments<Path>>
      : never
    : never;

/** The host's own JSON routes that its OpenAPI does not list. */
interface HostRoutes {
  "GET /api/openapi.json": OpenApiDocument;
}

/**
 * The answer of a route the OpenAPI does not list (a test plugin's own, or a path held in a
 * `string`): only the host's error envelope is known, every other field is the test's to name.
 */
export type Unlisted = Answer<unknown>;

/** The answer of the route serving `method path`: its {@link ApiBody}, else {@link Unlisted} (also for a route answering no JSON, HTML or metrics, whose refusals are JSON). */
export type RouteBody<M extends string, P extends string> = `${Uppercase<M>} ${P}` extends keyof HostRoutes
  ? HostRoutes[`${Uppercase<M>} ${P}`]
  : OperationAt<M, P> extends infer K
  ? [K] extends [never]
    ? Unlisted
    : K extends OperationName
      ? Operations[K]["response"] extends Response
        ? Unlisted
        : ApiBody<K>
      : Unlisted
  : Unlisted;

declare const fromRoute: unique symbol;
/** `json`'s default body type: not a body, a mark meaning "the route's own, found from the path and method". */
export interface FromRoute {
  readonly [fromRoute]: true;
}

/** The body type of a `json` call: the one the test named, else the route's (see {@link RouteBody}). */
export type JsonBody<T, M extends string, P extends string> = [T] extends [FromRoute] ? RouteBody<M, P> : T;


/**
 * Narrows a route's answer of several shapes (a union in its OpenAPI) to the one holding `key`:
 * `withField(res.body, "approval")` for a git push, `"commit"` for a commit. Throws, showing the
 * answer, when it has no such field (a refusal, or the other shape).
 */
export function withField<T, K extends string>(body: T, key: K): Extract<T, { [P in K]: unknown }> {
  if (typeof body !== "object" || body === null || !(key in body)) throw new Error(`the answer has no "${key}": ${JSON.stringify(body)}`);
  return body as Extract<T, { [P in K]: unknown }>;
}
