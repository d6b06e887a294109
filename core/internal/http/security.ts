// The security layer of DESIGN §6: response headers, the Host check (DNS-rebinding
// defence), the bearer token for non-loopback binds, the origin allow list (on every path:
// a check tied to a path prefix is skipped by `/API/...` or any path outside /api), and
// the session check used for destructive operations (header token, or the browser's
// login cookie on same-origin requests carrying that session's X-Muster-Csrf secret).
import type { IncomingHttpHeaders } from "node:http";
import type { Context } from "koa";
import { hostErrors } from "../../plugin-api/errors.ts";
import { constantTimeEqual } from "../../plugin-api/helpers.ts";
import { isLoopback } from "../config.ts";
import type { SessionToken } from "../session-token.ts";
import { SESSION_COOKIE, type BrowserLogin } from "./browser-login.ts";

export interface SecurityOptions {
  development: boolean;
  bindHost: string;
  allowedHosts: string[];
  allowedOrigins: string[];
  apiToken: string | null;
  /** The port actually listened on (known after listen; tests use port 0). */
  port: () => number;
}

/** The headers every response carries, including the ones Node writes itself (see client-error.ts). */
export function securityHeaderValues(development: boolean): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self'${development ? " 'unsafe-eval'" : ""}`,
    // No 'unsafe-inline' anywhere: the dashboard's styles and scripts are same-origin files.
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
  };
}

/**
 * Sets the security headers on a response. Straight on Node's response: Koa's `ctx.set`
 * builds an entries array and a normalised copy of each header on every call, for values
 * that are fixed strings here.
 */
export function securityHeaders(development: boolean): (res: Context["res"]) => void {
  const headers = Object.entries(securityHeaderValues(development));
  return (res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
  };
}

// `name` or `[ipv6]`, then at most a numeric port. Anything else (`[::1].evil`,
// `127.0.0.1:80@evil`) names no host: taking a prefix of it would let it pass as loopback.
const HOST_HEADER = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:@\[\]/]+))(?::\d{1,5})?$/;

function hostName(hostHeader: string): string {
  const match = HOST_HEADER.exec(hostHeader);
  return match ? (match[1] ?? match[2])! : "";
}

/** Whether an `Origin` header value is this server's own origin or a configured one. */
export function originPolicy(options: Pick<SecurityOptions, "allowedOrigins" | "port">): (origin: string) => boolean {
  const configuredOrigins = new Set(options.allowedOrigins);
  return (origin) => {
    const port = options.port();
    return (
      configuredOrigins.has(origin) ||
      origin === `http://127.0.0.1:${port}` ||
      origin === `http://localhost:${port}` ||
      origin === `http://[::1]:${port}`
    );
  };
}

/**
 * The access checks of every request, synchronous (no Koa layer of its own: a layer costs a
 * promise and a microtask turn per request). Throws the coded refusal; returns true when it
 * answered the request itself (a CORS preflight), false to let the request go on.
 */
export function accessChecks(options: SecurityOptions): (ctx: Context) => boolean {
  const hostAllowed = hostPolicy(options);
  const originAllowed = originPolicy(options);

  return (ctx) => {
    // HTTP/1.0 allows a request without Host; without one the rebinding check has nothing to test.
    const hostHeader = ctx.get("host");
    if (!hostHeader) throw hostErrors.HOST_HEADER_REQUIRED();
    if (!hostAllowed(hostHeader)) throw hostErrors.HOST_NOT_ALLOWED();

    if (options.apiToken) {
      const header = ctx.get("authorization");
      const match = /^Bearer (.+)$/.exec(header);
      if (!match || !constantTimeEqual(match[1]!, options.apiToken)) {
        throw hostErrors.UNAUTHORIZED({}, { headers: { "WWW-Authenticate": 'Bearer realm="muster"' } });
      }
    }

    const origin = ctx.get("origin");
    if (origin) {
      if (!originAllowed(origin)) throw hostErrors.ORIGIN_NOT_ALLOWED();
      ctx.set("Access-Control-Allow-Origin", origin);
      ctx.set("Vary", "Origin");
      if (ctx.method === "OPTIONS") {
        ctx.set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
        ctx.set("Access-Control-Allow-Headers", "Content-Type, X-Session-Token, X-Muster-Csrf, X-Agent-Id, Last-Event-ID, Authorization");
        ctx.set("Access-Control-Max-Age", "600");
        ctx.status = 204;
        return true;
      }
    }
    return false;
  };
}

/** Whether a Host header names this server: a loopback name, a configured host, or the address it is bound to. */
function hostPolicy(options: Pick<SecurityOptions, "allowedHosts" | "bindHost">): (hostHeader: string) => boolean {
  const extraHosts = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
  if (!isLoopback(options.bindHost) && options.bindHost !== "0.0.0.0" && options.bindHost !== "::") extraHosts.add(options.bindHost.toLowerCase());
  return (hostHeader) => {
    const name = hostName(hostHeader).toLowerCase();
    return isLoopback(name) || extraHosts.has(name);
  };
}

/**
 * Whether a request passes every access check of {@link accessChecks} and none of them adds
 * anything to its answer: its Host names this server, it has no Origin (a cross-origin
 * request gets CORS headers) and no bearer token is configured. Such a request may be
 * answered without a Koa context (lean-lane.ts); for any other, false, and the request takes
 * the way where the full checks run and answer a refusal.
 */
export function plainRequestCheck(options: SecurityOptions): (headers: IncomingHttpHeaders) => boolean {
  const hostAllowed = hostPolicy(options);
  return (headers) => !options.apiToken && headers.origin === undefined && typeof headers.host === "string" && hostAllowed(headers.host);
}

export interface SessionCheckDeps {
  token: SessionToken;
  login: BrowserLogin;
  originAllowed: (origin: string) => boolean;
}

/**
 * Throws unless the request carries the session token (`X-Session-Token`) or a browser
 * session cookie. A cookie rides along on any request the browser makes, including ones a
 * foreign page triggers, so it counts only when the request proves it is same-origin: an
 * allowed `Origin`, or `Sec-Fetch-Site: same-origin` (browsers omit Origin on some
 * same-origin GETs). Sites on another port of 127.0.0.1 are "same-site" for SameSite, hence
 * the origin test. That test stops browsers, not a local server on another port that was
 * sent the cookie and replays it with a forged Origin; so the cookie also needs its
 * session's CSRF secret in `X-Muster-Csrf`, which only ever travelled in a URL fragment.
 */
export function sessionCheck({ token, login, originAllowed }: SessionCheckDeps) {
  return (ctx: Context): void => {
    if (token.matches(ctx.get("x-session-token"))) return;
    const cookie = ctx.cookies.get(SESSION_COOKIE);
    if (!cookie || !login.sessionValid(cookie)) throw hostErrors.SESSION_TOKEN_REQUIRED();
    const origin = ctx.get("origin");
    const sameOrigin = origin ? originAllowed(origin) : ctx.get("sec-fetch-site") === "same-origin";
    if (!sameOrigin) throw hostErrors.SESSION_COOKIE_NOT_SAME_ORIGIN();
    if (!login.csrfMatches(cookie, ctx.get("x-muster-csrf"))) throw hostErrors.SESSION_CSRF_REQUIRED();
  };
}
