// The Koa application: request ids and logging, the single error boundary and envelope,
// the security layer, the plugin routes, and JSON 404/405 for everything else.
import { randomUUID } from "node:crypto";
import Koa, { type Context, type Next } from "koa";
import type { Logger } from "pino";
import { MusterError, hostErrors } from "../../plugin-api/errors.ts";
import { setJsonBody } from "./json-body.ts";
import { accessChecks, plainRequestCheck, securityHeaders, securityHeaderValues, type SecurityOptions } from "./security.ts";
import type { RouteTable } from "./plugin-router.ts";
import type { RequestMetrics } from "./request-metrics.ts";
import type { StartGate } from "./start-gate.ts";
import { leanLane } from "./lean-lane.ts";
import type { IncomingMessage, RequestListener } from "node:http";
import { collectingWrites } from "../../plugin-api/answer-after.ts";

const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;

interface EnvelopeDeps {
  logger: Logger;
  security: SecurityOptions;
  metrics?: RequestMetrics;
}

/** The envelope's parts, shared by the Koa chain and the lean lane (lean-lane.ts). */
export interface Envelope {
  /** Names the request (its own valid `X-Request-Id`, else a new one) and sets the security headers; returns the start time. */
  begin(ctx: Context): number;
  /** The access checks (access-checks in security.ts): throws the coded refusal; true when it answered a CORS preflight itself. */
  checkAccess(ctx: Context): boolean;
  /** The error boundary: anything a request threw, answered with the error envelope. */
  fail(ctx: Context, caught: unknown): void;
  /** Counts and logs the answered request. */
  end(ctx: Context, started: number): void;
  /**
   * `begin` for an answer written without a Koa context (lean-lane.ts's plain answers): the
   * request's id and, as name-value pairs for `res.writeHead`, the headers `begin` would set
   * (the answer appends its own).
   */
  beginPlain(req: IncomingMessage): { requestId: string; headers: string[]; started: number };
  /** Whether a request passes every access check with nothing to add to its answer (`plainRequestCheck` in security.ts). */
  plainRequestAllowed(req: IncomingMessage): boolean;
  /** `end` for a plain answer: counted under the route template it answered, logged as `end` logs. */
  endPlain(answered: { requestId: string; method: string; path: string; route: string; status: number }, started: number): void;
}

export function envelope({ logger, security, metrics }: EnvelopeDeps): Envelope {
  const setSecurityHeaders = securityHeaders(security.development);
  /** The request's id: its own valid `X-Request-Id`, else a new one. */
  const requestIdOf = (req: IncomingMessage): string => {
    const incoming = req.headers["x-request-id"];
    return typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  };
  const securityHeaderPairs = Object.entries(securityHeaderValues(security.development)).flat();
  // The path only: a query string could carry something that must not be logged. The
  // entry is built only when it is written (LOG_LEVEL=info or finer).
  const logged = () => logger.isLevelEnabled("info");
  const log = (entry: { requestId: string; method: string; path: string; status: number }, started: number) =>
    logger.info({ ...entry, ms: Math.round(performance.now() - started) }, "request");
  const plainRequest = plainRequestCheck(security);
  return {
    begin(ctx) {
      const requestId = (ctx.state.requestId = requestIdOf(ctx.req));
      ctx.res.setHeader("X-Request-Id", requestId);
      const started = performance.now();
      setSecurityHeaders(ctx.res);
      return started;
    },
    checkAccess: accessChecks(security),
    fail: (ctx, caught) => answerError(ctx, caught, logger),
    end(ctx, started) {
      metrics?.record(ctx, started);
      if (logged()) log({ requestId: ctx.state.requestId as string, method: ctx.method, path: ctx.path, status: ctx.status }, started);
    },
    beginPlain(req) {
      const requestId = requestIdOf(req);
      return { requestId, headers: ["X-Request-Id", requestId, ...securityHeaderPairs], started: performance.now() };
    },
    plainRequestAllowed: (req) => plainRequest(req.headers),
    endPlain(answered, started) {
      metrics?.recordAnswer(answered.method, answered.route, answered.status, started);
      if (logged()) log({ requestId: answered.requestId, method: answered.method, path: answered.path, status: answered.status }, started);
    },
  };
}

/**
 * What every request passes through before its route, as one Koa layer rather than five
 * (each layer costs a bound `next`, a promise and a microtask turn on every request), in the
 * order they had as layers: the request id and the access log outermost, then the metrics
 * (outside the error boundary, so errors are counted with the status they are answered
 * with), the security headers (before the boundary, so error answers carry them too), the
 * single error boundary and envelope, and inside it the access checks.
 */
function requestEnvelope(parts: Envelope) {
  return async (ctx: Context, next: Next) => {
    const started = parts.begin(ctx);
    try {
      if (!parts.checkAccess(ctx)) await next();
    } catch (caught) {
      parts.fail(ctx, caught);
    } finally {
      parts.end(ctx, started);
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
  startGate?: StartGate;
  /** PostgreSQL: a route's answer waits for the queued writes it made (`answerAfter`, plugin-api/answer-after.ts). */
  answerAfterWrites?: boolean;
}

/**
 * The server's request listener: the lean lane (lean-lane.ts) for a GET of a JSON route once
 * the start has ended, the Koa chain below for everything else.
 */
export function createApp({ logger, security, routes, metrics, startGate, answerAfterWrites }: AppOptions): RequestListener {
  const app = new Koa({ proxy: false });
  app.silent = true; // errors are logged by the boundary, with the request id
  const parts = envelope({ logger, security, metrics });
  app.use(requestEnvelope(parts));
  if (startGate) app.use(startGate.wait);
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
  return leanLane({ app, envelope: parts, routes, started: startGate ? startGate.isOpen : () => true, answerAfterWrites: Boolean(answerAfterWrites) });
}
