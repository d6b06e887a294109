// The Koa application: request ids and logging, the single error boundary and envelope,
// the security layer, the plugin routes, and JSON 404/405 for everything else.
import { randomUUID } from "node:crypto";
import Koa, { type Context, type Next } from "koa";
import type { Logger } from "pino";
import { MusterError, hostErrors } from "../../plugin-api/errors.ts";
import { setJsonBody } from "./json-body.ts";
import { accessChecks, securityHeaders, type SecurityOptions } from "./security.ts";
import type { RouteTable } from "./plugin-router.ts";
import type { RequestMetrics } from "./request-metrics.ts";
import { collectingWrites } from "../../plugin-api/answer-after.ts";

const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;

interface EnvelopeDeps {
  logger: Logger;
  security: SecurityOptions;
  metrics?: RequestMetrics;
}

/**
 * What every request passes through before its route, as one Koa layer rather than five
 * (each layer costs a bound `next`, a promise and a microtask turn on every request), in the
 * order they had as layers: the request id and the access log outermost, then the metrics
 * (outside the error boundary, so errors are counted with the status they are answered
 * with), the security headers (before the boundary, so error answers carry them too), the
 * single error boundary and envelope, and inside it the access checks.
 */
function requestEnvelope({ logger, security, metrics }: EnvelopeDeps) {
  const setSecurityHeaders = securityHeaders(security.development);
  const checkAccess = accessChecks(security);
  return async (ctx: Context, next: Next) => {
    const incoming = ctx.get("x-request-id");
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.res.setHeader("X-Request-Id", requestId);
    const started = performance.now();
    setSecurityHeaders(ctx);
    try {
      if (!checkAccess(ctx)) await next();
    } catch (caught) {
      answerError(ctx, caught, logger);
    } finally {
      metrics?.record(ctx, started);
      // The path only: a query string could carry something that must not be logged. The
      // entry is built only when it is written (LOG_LEVEL=info or finer).
      if (logger.isLevelEnabled("info")) {
        logger.info({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) }, "request");
      }
    }
  };
}

/** The error boundary: anything a request threw, answered with the error envelope. */
function answerError(ctx: Context, caught: unknown, logger: Logger): void {
  const error = toMusterError(caught);
  if (error.status >= 500) {
    logger.error({ err: caught, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, "request failed");
  }
  if (ctx.headerSent || !ctx.writable) return;
  ctx.status = error.status;
  for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
  setJsonBody(ctx, {
    ok: false,
    error: { code: error.code, message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) },
  });
}

/** Maps anything thrown to a `MusterError`; unknown failures become a generic 500. */
function toMusterError(caught: unknown): MusterError {
  if (caught instanceof MusterError) {
    // A plugin's own 5xx keeps its code but never leaks internals beyond its message.
    return caught;
  }
  const status = (caught as { status?: number; expose?: boolean })?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    if (status === 413) return hostErrors.PAYLOAD_TOO_LARGE({ limit: "the accepted size" });
    if (status === 415) return hostErrors.UNSUPPORTED_MEDIA_TYPE();
    return hostErrors.BAD_REQUEST({}, { status });
  }
  return hostErrors.INTERNAL_ERROR({}, { cause: caught });
}

export interface AppOptions {
  logger: Logger;
  security: SecurityOptions;
  routes: RouteTable;
  /** Counts every answered request (GET /metrics). */
  metrics?: RequestMetrics;
  /** Holds requests until the plugins have started (start-gate.ts); after the access checks, so a refused request is refused at once. */
  startGate?: (ctx: Context, next: Next) => Promise<unknown>;
  /** PostgreSQL: a route's answer waits for the queued writes it made (`answerAfter`, plugin-api/answer-after.ts). */
  answerAfterWrites?: boolean;
}

export function createApp({ logger, security, routes, metrics, startGate, answerAfterWrites }: AppOptions): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true; // errors are logged by the boundary, with the request id
  app.use(requestEnvelope({ logger, security, metrics }));
  if (startGate) app.use(startGate);
  if (answerAfterWrites) app.use((_ctx, next) => collectingWrites(next));
  app.use(routes.dispatch());
  app.use(async (ctx) => {
    // Reached only when no route answered: tell a wrong method from an unknown path.
    const match = routes.router.match(ctx.path, ctx.method);
    const allowed = new Set(match.path.flatMap((layer) => layer.methods));
    if (allowed.size > 0) {
      if (allowed.has("GET")) allowed.add("HEAD");
      const allow = [...allowed, "OPTIONS"].join(", ");
      if (ctx.method === "OPTIONS") {
        ctx.set("Allow", allow);
        ctx.status = 204;
        return;
      }
      throw hostErrors.METHOD_NOT_ALLOWED({ method: ctx.method, path: ctx.path }, { headers: { Allow: allow } });
    }
    throw hostErrors.NOT_FOUND({ method: ctx.method, path: ctx.path });
  });
  return app;
}
