import type { Context } from "koa";
import type { z } from "zod";

/** Who may call a route beyond the host-wide checks (loopback/bearer, origin, host). */
export type RouteAuth =
  /** No extra requirement. */
  | "none"
  /** The per-process session token (`X-Session-Token`); every DELETE needs it anyway. */
  | "session";

/** Everything the host needs to validate, document and serve one route. */
export interface RouteSpec<
  B extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
> {
  /** One line for the OpenAPI document. */
  summary: string;
  description?: string;
  /** Request body schema (JSON). Use strict objects so unknown fields are refused. */
  body?: B;
  /** Query string schema; values arrive as strings (use `z.coerce`). */
  query?: Q;
  /** Path parameter schema (`/api/tasks/:id` → `{ id }`). */
  params?: P;
  /** Response body schema, for the OpenAPI document. */
  response?: z.ZodType;
  /** Success status, 200 unless given (201 for creations). A handler that sets `koa.status` itself overrides it. */
  status?: number;
  auth?: RouteAuth;
  /** OpenAPI tags; the plugin id is always added. */
  tags?: string[];
  /** Marks the route as legacy (kept available, not for new clients). */
  legacy?: boolean;
  /**
   * The handler writes the response itself (streams, SSE). The host then neither
   * serialises a return value nor buffers the response.
   */
  raw?: boolean;
}

/** The validated input a handler receives. */
export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  /** The `X-Agent-Id` header when an agent makes the call; `null` for humans and tools. */
  agentId: string | null;
  requestId: string;
  /** Aborts when the client disconnects before the response is complete. */
  signal: AbortSignal;
  /**
   * Sets a header on the answer (`X-Total-Count`, `ETag`, ...), replacing an earlier value of
   * the same name; an error answer keeps it too. Cheaper than `koa.set`: a GET whose handler
   * never reads `koa` is answered without building a Koa context.
   */
  setHeader(name: string, value: string): void;
  /**
   * The underlying Koa context, for raw streaming and anything else about the request or
   * answer. Built when first read: a handler that only needs a header uses `setHeader`.
   */
  koa: Context;
}

export type RouteHandler<B, Q, P> = (input: RouteInput<B, Q, P>) => unknown | Promise<unknown>;

type Method = <B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown, P extends z.ZodType = z.ZodUnknown>(
  path: string,
  spec: RouteSpec<B, Q, P>,
  handler: RouteHandler<z.output<B>, z.output<Q>, z.output<P>>,
) => PluginRouter;

/**
 * The router a plugin receives in `routes(router, ctx)`. Every path must start with one
 * of the plugin's declared `paths`. Handlers return the response body (serialised as
 * JSON with `spec.status`); throwing a `MusterError` produces the error envelope.
 */
export interface PluginRouter {
  get: Method;
  post: Method;
  put: Method;
  patch: Method;
  delete: Method;
}
