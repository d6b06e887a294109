// A route's input read from a request, the same way whether the request has a Koa context
// (the Koa chain, the lean lane) or not (plain route answers, lean-lane.ts): its path
// parameters, its query string and the X-Agent-Id header, each validated by the route's spec.
import { validateHeaderName, validateHeaderValue } from "node:http";
import type { Context } from "koa";
import type { RouteSpec } from "../../plugin-api/http.ts";
import { hostErrors } from "../../plugin-api/errors.ts";
import { validate } from "./validation.ts";

const AGENT_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * A query string as an object, as Koa's `ctx.query` reads it (koa/lib/search-params.js): each
 * name once, its value a string, or an array of strings when the name repeats. The object is
 * built with defined properties, so a name such as `__proto__` is an ordinary field.
 */
export function parseQueryString(querystring: string): Record<string, string | string[]> {
  const parsed: Record<string, string | string[]> = {};
  if (querystring === "") return parsed;
  const params = new URLSearchParams(querystring);
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    Object.defineProperty(parsed, name, { value: values.length === 1 ? values[0] : values, writable: true, enumerable: true, configurable: true });
  }
  return parsed;
}

/**
 * A handler's input (`RouteInput`), one per run of the handler. Its `signal` and `koa` are
 * made on first read, through accessors on the prototype: an object literal with accessors
 * of its own costs more per request than the objects it would save (bench:listener: health
 * 1.145x with such a literal, 2026-11-29).
 */
export class HandlerInput {
  readonly body: unknown;
  readonly query: unknown;
  readonly params: unknown;
  readonly agentId: string | null;
  readonly requestId: string;
  readonly setHeader: (name: string, value: string) => void;
  readonly #signal: () => AbortSignal;
  readonly #koa: () => Context;
  constructor(read: { body: unknown; query: unknown; params: unknown; agentId: string | null; requestId: string }, setHeader: HandlerInput["setHeader"], signal: () => AbortSignal, koa: () => Context) {
    this.body = read.body;
    this.query = read.query;
    this.params = read.params;
    this.agentId = read.agentId;
    this.requestId = read.requestId;
    this.setHeader = setHeader;
    this.#signal = signal;
    this.#koa = koa;
  }
  get signal(): AbortSignal {
    return this.#signal();
  }
  get koa(): Context {
    return this.#koa();
  }
}

/** Reads and validates a route's path parameters and query string, by its spec. */
export function routeInputReader(spec: Pick<RouteSpec, "params" | "query">) {
  // Asked at the route's first request without a query string, not at mount: the first
  // parse of each schema compiles zod's fast path (~15 ms of a start over every route).
  let noQueryIsEmpty: boolean | undefined = spec.query ? undefined : true;
  return {
    params(captured: Record<string, string>): unknown {
      return spec.params ? validate(spec.params, { ...captured }, "params") : { ...captured };
    },
    query(querystring: string): unknown {
      if (!spec.query) return {};
      // Without a query string the schema would be given `{}`, whose answer is known.
      if (querystring === "" && (noQueryIsEmpty ??= parsesToEmpty(spec.query))) return {};
      return validate(spec.query, parseQueryString(querystring), "query");
    },
  };
}

/** The calling agent's id from the `X-Agent-Id` header's value; null without one; refused when it is not an agent id. */
export function agentIdFrom(header: string | string[] | undefined): string | null {
  if (header === undefined || header === "") return null;
  if (typeof header !== "string" || !AGENT_ID.test(header)) {
    throw hostErrors.VALIDATION_FAILED({ subject: "request header", summary: "X-Agent-Id must be an agent id" }, { details: [{ path: "X-Agent-Id", reason: "not an agent id", in: "header" }] });
  }
  return header;
}

/**
 * Sets `name` in a list of answer headers held as name-value pairs (for `res.writeHead`),
 * replacing an earlier value of the same name as `res.setHeader` would. The name and value
 * are checked as `res.setHeader` checks them, so a bad one fails in the handler that set it.
 */
export function setHeaderPair(pairs: string[], name: string, value: string): void {
  validateHeaderName(name);
  validateHeaderValue(name, value);
  const lower = name.toLowerCase();
  for (let i = 0; i < pairs.length; i += 2) {
    if (pairs[i]!.toLowerCase() === lower) {
      pairs.splice(i, 2);
      break;
    }
  }
  pairs.push(name, value);
}

/**
 * Whether a query schema accepts no parameters at all and gives an empty object for them
 * (`z.strictObject({})`, or only optional fields without defaults): then a request without a
 * query string needs no parse. Asked once per route.
 */
function parsesToEmpty(schema: NonNullable<RouteSpec["query"]>): boolean {
  const parsed = schema.safeParse({});
  if (!parsed.success) return false;
  const data: unknown = parsed.data;
  return typeof data === "object" && data !== null && Object.getPrototypeOf(data) === Object.prototype && Object.keys(data).length === 0;
}
