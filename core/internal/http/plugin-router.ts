// Builds each plugin's `PluginRouter` on one shared @koa/router, validating input with
// the route's zod schemas and recording every route for the OpenAPI document.
import Router from "@koa/router";
import type { Context } from "koa";
import type { PluginRouter, RouteHandler, RouteSpec } from "../../plugin-api/http.ts";
import { hostErrors } from "../../plugin-api/errors.ts";
import { startErrors } from "../start-errors.ts";
import { readJsonBody } from "./body.ts";
import { setJsonBody } from "./json-body.ts";
import { validate } from "./validation.ts";
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

const AGENT_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

export class RouteTable {
  // Case-sensitive: `/API/BOARD/IMPORT` is not `/api/board/import` (a 404, never a second
  // spelling that path-based checks could miss).
  readonly router = new Router({ sensitive: true });
  readonly routes: RouteRecord[] = [];

  private readonly deps: RouterDeps;
  constructor(deps: RouterDeps) {
    this.deps = deps;
  }

  /** The `PluginRouter` a plugin receives; paths outside its declared prefixes are refused. */
  forPlugin(pluginId: string, prefixes: string[]): PluginRouter {
    const add = (method: HttpMethod) =>
      (path: string, spec: RouteSpec, handler: RouteHandler<any, any, any>): PluginRouter => {
        if (!prefixes.some((p) => path === p || path.startsWith(`${p}/`))) {
          throw startErrors.PLUGIN_ROUTE_OUTSIDE_PATHS({ id: pluginId, method, path, paths: prefixes.join(", ") || "none" });
        }
        this.routes.push({ pluginId, method, path, spec });
        this.router.register(path, [method], this.middleware(method, spec, handler));
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
    return async (ctx: Context) => {
      if (method === "DELETE" || spec.auth === "session") this.deps.requireSession(ctx);
      const params = spec.params ? validate(spec.params, { ...ctx.params }, "params") : { ...ctx.params };
      const query = spec.query ? validate(spec.query, { ...ctx.query }, "query") : {};
      const raw = method === "GET" ? undefined : await readJsonBody(ctx, this.deps.bodyLimitBytes);
      const body = spec.body ? validate(spec.body, raw ?? {}, "body") : undefined;
      const agentHeader = ctx.get("x-agent-id");
      if (agentHeader && !AGENT_ID.test(agentHeader)) {
        throw hostErrors.VALIDATION_FAILED({ subject: "request header", summary: "X-Agent-Id must be an agent id" }, { details: [{ path: "X-Agent-Id", reason: "not an agent id", in: "header" }] });
      }
      const aborted = new AbortController();
      ctx.res.once("close", () => {
        if (!ctx.res.writableFinished) aborted.abort(new Error("client disconnected"));
      });
      const statusBefore = ctx.status;
      // Only the handler is re-run on a locked database, never the parsing and validation
      // above: the request body stream can be read once (storage-guard.ts says why a re-run is safe).
      const requestId = ctx.state.requestId as string;
      const run = () => handler({ body, query, params, agentId: agentHeader || null, requestId, signal: aborted.signal, koa: ctx });
      const result = await this.deps.runHandler(run, { requestId, signal: aborted.signal, canRetry: () => !ctx.headerSent });
      if (spec.raw) return;
      // A handler may pick another success status itself (create-or-update answering 200
      // for an update, health answering 503): an explicit `koa.status` wins over the spec.
      ctx.status = ctx.status !== statusBefore ? ctx.status : spec.status ?? 200;
      setJsonBody(ctx, result === undefined ? { ok: true } : result);
    };
  }
}
