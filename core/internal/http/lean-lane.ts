// The lean lane (issue 26): a GET of a JSON route, once the start has ended, served without
// Koa's per-request machinery around it. The request still gets a Koa context (handlers read
// `koa`, the session check reads its cookies) and passes the very same steps as in the Koa
// chain, in the same order: the envelope's request id, security headers, access checks,
// error boundary, metrics and log (app.ts), the PostgreSQL write collection, the route's own
// validation and handler (plugin-router.ts). What it skips is what costs a GET and adds
// nothing to it: the middleware chain (a promise and a bound `next` per layer), the start
// gate's layer (it is open), Koa's `handleRequest` (it watches the response with
// `on-finished`, listeners on the response and its socket per request) and `respond`
// (written out below for the bodies a JSON route gives). Anything else (another method, a
// HEAD, a raw or unknown route, a path Koa's URL parser would treat specially, the start not
// yet over) goes down the Koa chain unchanged.
//
// A host answer the route table holds as plain (`RouteTable.answerPlainly`: GET /api/health)
// needs no context at all: when the request passes every access check with nothing to add to
// the answer (security.ts's `plainRequestCheck`: a Host naming this server, no Origin, no
// bearer token configured) and carries no query string, the envelope's request id, headers,
// count and log are written around the answer on Node's response directly, in one
// `writeHead`. Any other such request (an Origin, a token to check, a query to validate)
// takes the lean lane or the chain, where the full checks run and answer refusals.
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import Stream from "node:stream";
import type Koa from "koa";
import type { Context } from "koa";
import { collectingWrites } from "../../plugin-api/answer-after.ts";
import type { Envelope } from "./app.ts";
import { CONTEXT_STATUS, type Matched, type PlainAnswer, type PlainExchange, type RouteTable } from "./plugin-router.ts";
import { JSON_TYPE } from "./json-body.ts";

export interface LeanLaneDeps {
  app: Koa;
  envelope: Envelope;
  routes: RouteTable;
  /** Whether the start has ended well: until then every request waits at the start gate, in the Koa chain. */
  started: () => boolean;
  /** PostgreSQL: the answer waits for the writes the route queued (plugin-api/answer-after.ts). */
  answerAfterWrites: boolean;
}

/**
 * Characters for which Koa's URL parser (parseurl) leaves its fast path and parses the URL
 * as Node's legacy `url.parse` does: such a request goes down the Koa chain, so a path is
 * always read as Koa reads it. Elsewhere its fast path is this lane's split at the first `?`.
 */
const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;
/** A plugin route as the lean lane runs it without a context. */
type PlainRouteOf = NonNullable<ReturnType<RouteTable["plainRouteOf"]>>;
/** What `Envelope.beginPlain` gave a plain answer. */
type PlainBegun = ReturnType<Envelope["beginPlain"]>;
/** Statuses answered without a body, as Koa's `statuses.empty`. */
const EMPTY_STATUS = new Set([204, 205, 304]);

export function leanLane({ app, envelope, routes, started, answerAfterWrites }: LeanLaneDeps): RequestListener {
  const koa = app.callback();
  return (req, res) => {
    const url = req.url;
    if (req.method !== "GET" || !url || url.charCodeAt(0) !== 47 /* "/" */ || UNUSUAL_URL.test(url) || !started()) return koa(req, res);
    const query = url.indexOf("?");
    const path = query < 0 ? url : url.slice(0, query);
    const plain = query < 0 ? routes.plainRoute(path) : undefined;
    if (plain && envelope.plainRequestAllowed(req)) return answerPlainly(req, res, path, plain);
    const found = routes.leanRoute(path);
    if (!found) return koa(req, res);
    const route = plain === undefined && envelope.plainRequestAllowed(req) ? routes.plainRouteOf(found, path) : undefined;
    if (route) return answerRoute(req, res, found, path, query < 0 ? "" : url.slice(query + 1), route);
    const ctx = app.createContext(req, res);
    // As Koa's handleRequest: what fails past the error boundary (the answer's own
    // serialisation in respond()) is Koa's plain 500 for this request, never a crash.
    serve(ctx, found, path).catch((error: unknown) => ctx.onerror(error as Error));
  };

  /**
   * A host answer without a Koa context (`RouteTable.answerPlainly`): the envelope's request
   * id, headers, count and log, around the status and JSON the route would answer. The access
   * checks passed with nothing to add (`plainRequestAllowed`); the route has no input to read.
   * An answer that is ready at once is written in the same turn. Should it fail, the request
   * is answered as the Koa chain's boundary would.
   */
  function answerPlainly(req: IncomingMessage, res: ServerResponse, path: string, plain: PlainAnswer): void {
    const begun = envelope.beginPlain(req);
    try {
      const answer = plain();
      if (answer instanceof Promise) {
        answer.then((settled) => writePlain(res, path, path, begun, settled.status, JSON.stringify(settled.body))).catch((caught: unknown) => failPlain(req, res, path, begun, caught));
      } else writePlain(res, path, path, begun, answer.status, JSON.stringify(answer.body));
    } catch (caught) {
      failPlain(req, res, path, begun, caught);
    }
  }

  /**
   * Writes a plain answer: one call with every header, as the Koa chain would have set them
   * one by one (the request id and security headers, a route's own, then the body's).
   */
  function writePlain(res: ServerResponse, path: string, route: string, begun: PlainBegun, status: number, text: string): void {
    begun.headers.push("Content-Type", JSON_TYPE, "Content-Length", String(Buffer.byteLength(text)));
    res.writeHead(status, begun.headers);
    res.end(text);
    envelope.endPlain({ requestId: begun.requestId, method: "GET", path, route, status }, begun.started);
  }

  function failPlain(req: IncomingMessage, res: ServerResponse, path: string, begun: PlainBegun, caught: unknown): void {
    // The envelope's headers, as the Koa chain's boundary answers with them (a body header
    // the failed answer appended is replaced by the error envelope's own).
    if (!res.headersSent) for (let i = 0; i < begun.headers.length; i += 2) res.setHeader(begun.headers[i]!, begun.headers[i + 1]!);
    const ctx = app.createContext(req, res);
    ctx.state.requestId = begun.requestId;
    envelope.fail(ctx, caught);
    respond(ctx);
    envelope.endPlain({ requestId: begun.requestId, method: "GET", path, route: path, status: ctx.status }, begun.started);
  }

  /**
   * A plugin route's answer without a Koa context (`RouteTable.plainRouteOf`): the envelope as
   * for a plain host answer, the route's input read and checked from the request, its JSON
   * answer written in one `writeHead`. The context is made only when the route asks for it
   * (its handler reads `koa`, or answers something else than JSON): the request is then
   * answered from the context, with the headers it had so far, as the lean lane answers.
   * A failure is answered as the Koa chain's boundary answers it.
   */
  function answerRoute(req: IncomingMessage, res: ServerResponse, found: Matched, path: string, querystring: string, route: PlainRouteOf): void {
    const begun = envelope.beginPlain(req);
    let ctx: Context | undefined;
    const exchange: PlainExchange = {
      req,
      res,
      requestId: begun.requestId,
      headers: begun.headers,
      context: () => (ctx ??= contextFor(req, res, begun, found, path)),
      contextMade: () => ctx !== undefined,
    };
    const run = () => route.run(exchange, route.params, querystring);
    (answerAfterWrites ? collectingWrites(run) : run())
      .then(
        (answer) => {
          if (answer) return writePlain(res, path, route.template, begun, answer.status, answer.text);
          envelope.end(ctx!, begun.started);
          respond(ctx!);
        },
        (caught: unknown) => {
          const failed = exchange.context();
          envelope.fail(failed, caught);
          envelope.end(failed, begun.started);
          respond(failed);
        },
      )
      .catch((error: unknown) => exchange.context().onerror(error as Error));
  }

  /** The request's Koa context, made late: with the headers its answer has so far and the router's fields, as the lean lane's context would have them. */
  function contextFor(req: IncomingMessage, res: ServerResponse, begun: PlainBegun, found: Matched, path: string): Context {
    if (!res.headersSent) for (let i = 0; i < begun.headers.length; i += 2) res.setHeader(begun.headers[i]!, begun.headers[i + 1]!);
    const ctx = app.createContext(req, res);
    ctx.state.requestId = begun.requestId;
    res.statusCode = CONTEXT_STATUS;
    routes.routeContext(ctx, found, path);
    return ctx;
  }

  async function serve(ctx: Context, found: Matched, path: string): Promise<void> {
    // As Koa's handleRequest: a route tells its own status from this one (plugin-router.ts).
    ctx.res.statusCode = CONTEXT_STATUS;
    const started = envelope.begin(ctx);
    try {
      // Never a CORS preflight: that is an OPTIONS request.
      envelope.checkAccess(ctx);
      await (answerAfterWrites ? collectingWrites(() => routes.serveLean(ctx, found, path)) : routes.serveLean(ctx, found, path));
    } catch (caught) {
      envelope.fail(ctx, caught);
    } finally {
      envelope.end(ctx, started);
    }
    respond(ctx);
  }
}

/**
 * Koa's `respond` (koa/lib/application.js, 3.x), step for step, for what a JSON route's
 * context can hold after it ran: a string (the JSON `setJsonBody` wrote, or a handler's
 * text), a Buffer, a Node stream, nothing, or a JSON value. Not Koa's web-stream, Blob and
 * Response branches: `setJsonBody` serialises those objects as JSON before they get here.
 */
function respond(ctx: Context): void {
  // A handler that wrote the answer itself (raw routes do, and take the Koa chain anyway).
  if (ctx.respond === false) return;
  const res = ctx.res;
  if (!ctx.writable) {
    res.end();
    return;
  }
  let body: unknown = ctx.body;
  const code = ctx.status;
  if (EMPTY_STATUS.has(code)) {
    ctx.body = null;
    res.end();
    return;
  }
  if (body === null || body === undefined) {
    if ((ctx.response as { _explicitNullBody?: boolean })._explicitNullBody) {
      ctx.response.remove("Content-Type");
      ctx.response.remove("Transfer-Encoding");
      ctx.length = 0;
      res.end();
      return;
    }
    const text = ctx.message || String(code);
    if (!res.headersSent) {
      ctx.type = "text";
      ctx.length = Buffer.byteLength(text);
    }
    res.end(text);
    return;
  }
  if (typeof body === "string" || Buffer.isBuffer(body)) {
    res.end(body);
    return;
  }
  if (body instanceof Stream) {
    Stream.pipeline(body as unknown as NodeJS.ReadableStream, res, (error) => {
      if (error && ctx.app.listenerCount("error")) ctx.onerror(error);
    });
    return;
  }
  body = JSON.stringify(body);
  if (!res.headersSent) ctx.length = Buffer.byteLength(body as string);
  res.end(body);
}
