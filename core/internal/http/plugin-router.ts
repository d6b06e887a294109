// Builds each plugin's `PluginRouter` on one shared @koa/router, validating input with
// the route's zod schemas and recording every route for the OpenAPI document.
import Router from "@koa/router";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context, Next } from "koa";
import type { PluginRouter, RouteHandler, RouteInput, RouteSpec } from "../../plugin-api/http.ts";
import { keptAnswerText } from "../../plugin-api/kept-answer.ts";
import { startErrors } from "../start-errors.ts";
import { readJsonBody } from "./body.ts";
import { isJsonAnswer, setJsonBody } from "./json-body.ts";
import { validate } from "./validation.ts";
import { agentIdFrom, HandlerInput, routeInputReader, setHeaderPair } from "./route-input.ts";
import type { HandlerGuard } from "./storage-guard.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteRecord {
  pluginId: string;
  method: HttpMethod;
  path: string;
  spec: RouteSpec;
}

export interface RouterDeps {
  bodyLimitBytes: number;
  /** Throws 401 unless the request carries the session token (or a same-origin browser session). */
  requireSession(ctx: Context): void;
  /** Runs each handler; re-runs it while the database is locked by another process (storage-guard.ts). */
  runHandler: HandlerGuard;
}

/** The fields @koa/router's dispatch sets on a routed request's context. */
type RoutedContext = Context & {
  matched: unknown[];
  router: Router;
  routeMatched: boolean;
  captures: string[];
  params: Record<string, string>;
  request: { params: Record<string, string> };
  routerPath: string | RegExp;
  routerName: string | undefined;
  _matchedRoute: string | RegExp;
  _matchedRouteName?: string;
};

export type Matched = ReturnType<Router["match"]>;

/** A host route's answer computed from host state alone (see `RouteTable.answerPlainly`). */
export type PlainAnswer = () => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;
type RouteLayer = Matched["pathAndMethod"][number];

/**
 * The route a match runs when the first layer for the path and method is a route with one
 * handler (a route's handler never calls `next`); undefined for anything else (a layer added
 * with `router.use`, a layer with more than one handler), which @koa/router's dispatch runs.
 */
function handlerOnly(found: Matched): RouteLayer | undefined {
  const layer = found.pathAndMethod[0];
  return found.route && layer && layer.methods.length > 0 && layer.stack.length === 1 ? layer : undefined;
}

const noNext = () => Promise.resolve();

/**
 * The status a request's context starts with, as Koa's handleRequest sets it: a route tells
 * its handler's own status (`koa.status`) from this one.
 */
export const CONTEXT_STATUS = 404;

/** What the lean lane gives a route it serves without a Koa context (see `RouteTable.plainRouteOf`). */
export interface PlainExchange {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  /** The answer's headers so far, as name-value pairs for `res.writeHead`; a handler's `setHeader` adds to them. */
  headers: string[];
  /** The request's Koa context, made on the first call: from then on the answer is the context's. */
  context(): Context;
  contextMade(): boolean;
}

/**
 * A GET route run for a request without a Koa context: its status and JSON text, or undefined
 * when the answer is on the request's context (the handler read `koa`, or answered something
 * other than a JSON object or array).
 */
export type PlainRoute = (exchange: PlainExchange, params: Record<string, string>, querystring: string) => Promise<{ status: number; text: string } | undefined>;
/** How many paths' route matches are kept at most (see `rememberMatches`). */
const MATCHES_KEPT = 1_000;

export class RouteTable {
  // Case-sensitive: `/API/BOARD/IMPORT` is not `/api/board/import` (a 404, never a second
  // spelling that path-based checks could miss).
  readonly router = new Router({ sensitive: true });
  readonly routes: RouteRecord[] = [];

  private readonly deps: RouterDeps;
  constructor(deps: RouterDeps) {
    this.deps = deps;
    this.rememberMatches();
  }

  /**
   * @koa/router tests every route's pattern, in order, on every request (a few hundred
   * regular expressions). What it finds depends only on the path, the method and the routes,
   * so the answer for a path is kept: a bounded map, emptied when full (paths with ids in
   * them are unbounded) and whenever a route is added. The router and the 404/405 fallback
   * read the same answer; neither changes it.
   */
  private rememberMatches(): void {
    const match = this.router.match.bind(this.router);
    const known = new Map<string, ReturnType<Router["match"]>>();
    let routeCount = this.router.stack.length;
    this.router.match = (path, method) => {
      if (routeCount !== this.router.stack.length || known.size >= MATCHES_KEPT) {
        known.clear();
        routeCount = this.router.stack.length;
      }
      const key = `${method} ${path}`;
      let found = known.get(key);
      if (!found) known.set(key, (found = match(path, method)));
      return found;
    };
  }

  /**
   * Koa middleware running the route a request matches, as @koa/router's own dispatch does,
   * without its per-request work that a table of handler-only routes does not need: the
   * host-pattern check (parsing the Host header again), debug calls, and a middleware chain
   * composed anew for every request. The first route matching the path and method answers
   * (a route's handler never calls `next`), with the context fields the router sets.
   * Anything else (a layer added with `router.use`, a layer with more than one handler) goes
   * through @koa/router's dispatch unchanged.
   */
  dispatch(): (ctx: Context, next: Next) => unknown {
    const router = this.router;
    const general = router.routes() as unknown as (ctx: Context, next: Next) => unknown;
    return (ctx, next) => {
      const path = ctx.path;
      const found = router.match(path, ctx.method);
      const layer = handlerOnly(found);
      if (!layer) return general(ctx, next);
      return this.enter(ctx, found, layer, path)(ctx as never, next);
    };
  }

  /**
   * The match of a GET of `path` when the lean lane (lean-lane.ts) may serve it: a
   * handler-only route (as `dispatch` runs them) that answers with its return value (not a
   * `raw` one, which writes the response itself). The match is the kept one (no allocation
   * per request); `serveLean` runs it.
   */
  leanRoute(path: string): Matched | undefined {
    const found = this.router.match(path, "GET");
    const layer = handlerOnly(found);
    return layer && this.leanHandlers.has(layer.stack[0]!) ? found : undefined;
  }

  /** Runs the route of a `leanRoute` match on the request's context. */
  serveLean(ctx: Context, found: Matched, path: string): Promise<void> {
    return this.enter(ctx, found, handlerOnly(found)!, path)(ctx as never, noNext) as Promise<void>;
  }

  /**
   * The route of a `leanRoute` match as it runs without a Koa context, with its template (for
   * the metrics) and its path parameters; undefined for a route that needs the context from
   * the start (one asking for the session token).
   */
  plainRouteOf(found: Matched, path: string): { run: PlainRoute; template: string; params: Record<string, string> } | undefined {
    const layer = handlerOnly(found)!;
    const run = this.plainRoutes.get(layer.stack[0]!);
    if (!run) return undefined;
    const params = layer.paramNames.length > 0 ? layer.params(path, layer.captures(path), {}) : {};
    return { run, template: layer.path as string, params };
  }

  /** Sets the fields the router sets on a routed request's context (see `enter`), for a request that got its context late. */
  routeContext(ctx: Context, found: Matched, path: string): void {
    this.enter(ctx, found, handlerOnly(found)!, path);
  }

  /**
   * The host's answer to a GET of `path` when the lean lane may write it without a Koa
   * context (see `answerPlainly`); undefined for any other path.
   */
  plainRoute(path: string): PlainAnswer | undefined {
    return this.plainAnswers.get(path);
  }

  /**
   * Declares that a GET of `path` without a query string can be answered from the host's
   * state alone: `answer` gives what the route mounted on the same path would (its status
   * and JSON body), with no input to validate, nothing to read from the request and no
   * storage lock to wait for. Only the host declares these (a plugin route reads its input).
   */
  answerPlainly(path: string, answer: PlainAnswer): void {
    if (!this.routes.some((r) => r.method === "GET" && r.path === path)) throw new Error(`no GET route at ${path} to answer plainly`);
    this.plainAnswers.set(path, answer);
  }

  private readonly plainAnswers = new Map<string, PlainAnswer>();

  /** The route handlers a GET may reach through the lean lane (see `leanRoute`). */
  private readonly leanHandlers = new WeakSet<object>();

  /** Sets the context fields @koa/router's dispatch sets on a routed request; returns the layer's handler. */
  private enter(ctx: Context, found: Matched, layer: RouteLayer, path: string) {
    const routed = ctx as RoutedContext;
    routed.matched = found.path;
    routed.router = this.router;
    routed.routeMatched = true;
    const captures = layer.paramNames.length > 0 ? layer.captures(path) : [];
    routed.captures = captures;
    routed.params = routed.request.params = layer.params(path, captures, routed.params);
    routed.routerPath = layer.path;
    routed.routerName = layer.name || undefined;
    routed._matchedRoute = layer.path;
    if (layer.name) routed._matchedRouteName = layer.name;
    return layer.stack[0]!;
  }

  /** The `PluginRouter` a plugin receives; paths outside its declared prefixes are refused. */
  forPlugin(pluginId: string, prefixes: string[]): PluginRouter {
    const add = (method: HttpMethod) =>
      (path: string, spec: RouteSpec, handler: RouteHandler<any, any, any>): PluginRouter => {
        if (!prefixes.some((p) => path === p || path.startsWith(`${p}/`))) {
          throw startErrors.PLUGIN_ROUTE_OUTSIDE_PATHS({ id: pluginId, method, path, paths: prefixes.join(", ") || "none" });
        }
        this.routes.push({ pluginId, method, path, spec });
        const middleware = this.middleware(method, spec, handler);
        if (method === "GET" && !spec.raw) this.leanHandlers.add(middleware);
        this.router.register(path, [method], middleware);
        return api;
      };
    const api: PluginRouter = {
      get: add("GET"),
      post: add("POST"),
      put: add("PUT"),
      patch: add("PATCH"),
      delete: add("DELETE"),
    } as PluginRouter;
    return api;
  }

  private middleware(method: HttpMethod, spec: RouteSpec, handler: RouteHandler<any, any, any>) {
    const input = routeInputReader(spec);
    const middleware = async (ctx: Context) => {
      if (method === "DELETE" || spec.auth === "session") this.deps.requireSession(ctx);
      const params = input.params(ctx.params);
      const query = input.query(ctx.querystring);
      const raw = method === "GET" ? undefined : await readJsonBody(ctx, this.deps.bodyLimitBytes);
      const body = spec.body ? validate(spec.body, raw ?? {}, "body") : undefined;
      const agentId = agentIdFrom(ctx.req.headers["x-agent-id"]);
      const signal = disconnectSignal(ctx.res);
      const statusBefore = ctx.status;
      // Only the handler is re-run on a locked database, never the parsing and validation
      // above: the request body stream can be read once (storage-guard.ts says why a re-run is safe).
      const requestId = ctx.state.requestId as string;
      const setHeader = (name: string, value: string) => ctx.res.setHeader(name, value);
      const read = { body, query, params, agentId, requestId };
      const run = () => handler(new HandlerInput(read, setHeader, signal, () => ctx) as RouteInput<any, any, any>);
      const result = await this.deps.runHandler(run, { requestId, signal, canRetry: () => !ctx.headerSent });
      if (spec.raw) return;
      // A handler may pick another success status itself (create-or-update answering 200
      // for an update, health answering 503): an explicit `koa.status` wins over the spec.
      ctx.status = ctx.status !== statusBefore ? ctx.status : spec.status ?? 200;
      setJsonBody(ctx, result === undefined ? { ok: true } : result);
    };
    if (method === "GET" && !spec.raw && spec.auth !== "session") this.plainRoutes.set(middleware, this.routeWithoutContext(spec, handler, input));
    return middleware;
  }

  /**
   * The same route for a GET answered without a Koa context (lean-lane.ts): the input read
   * and checked as above, from the request itself, the handler run, and its JSON answer
   * handed back as text. A handler that reads `koa` gets the context then (`exchange.context`),
   * and so does an answer that is not a JSON object or array: such a request is answered
   * from the context, as in the Koa chain (undefined is returned).
   */
  private routeWithoutContext(spec: RouteSpec, handler: RouteHandler<any, any, any>, input: ReturnType<typeof routeInputReader>): PlainRoute {
    return async (exchange, captured, querystring) => {
      const params = input.params(captured);
      const query = input.query(querystring);
      const { req, res, requestId } = exchange;
      const agentId = agentIdFrom(req.headers["x-agent-id"]);
      const signal = disconnectSignal(res);
      const setHeader = (name: string, value: string) => {
        // A header that changes how the body is sent is Koa's to send with it.
        if (exchange.contextMade() || BODY_HEADERS.has(name.toLowerCase())) exchange.context().res.setHeader(name, value);
        else setHeaderPair(exchange.headers, name, value);
      };
      const read = { body: undefined, query, params, agentId, requestId };
      const run = () => handler(new HandlerInput(read, setHeader, signal, exchange.context) as RouteInput<any, any, any>);
      const result = await this.deps.runHandler(run, { requestId, signal, canRetry: () => !res.headersSent });
      const answer = result === undefined ? { ok: true } : result;
      if (!exchange.contextMade() && isJsonAnswer(answer)) return { status: spec.status ?? 200, text: keptAnswerText(answer) ?? JSON.stringify(answer) };
      const ctx = exchange.context();
      ctx.status = ctx.status !== CONTEXT_STATUS ? ctx.status : spec.status ?? 200;
      setJsonBody(ctx, answer);
      return undefined;
    };
  }

  /** The plain form of each GET route that has one (see `routeWithoutContext`), by the route's middleware. */
  private readonly plainRoutes = new WeakMap<object, PlainRoute>();
}

/** Headers that go with the body: a handler setting one is answered through the Koa context. */
const BODY_HEADERS = new Set(["content-type", "content-length", "transfer-encoding", "content-encoding"]);

/**
 * The request's signal, aborted when the client disconnects before the answer is complete;
 * made on first read (most handlers never read it): a client already gone by then gives a
 * signal aborted at once.
 */
function disconnectSignal(res: ServerResponse): () => AbortSignal {
  let aborted: AbortController | undefined;
  return () => {
    if (aborted) return aborted.signal;
    const made = (aborted = new AbortController());
    const gone = () => {
      if (!res.writableFinished) made.abort(new Error("client disconnected"));
    };
    if (res.destroyed) gone();
    else res.once("close", gone);
    return made.signal;
  };
}
