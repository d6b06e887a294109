// The security layer of DESIGN §6: response headers, the Host check (DNS-rebinding
// defence), the bearer token for non-loopback binds, the origin allow list on /api/*,
// and the session-token check used for destructive operations.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Context, Next } from "koa";
import { hostErrors } from "../../plugin-api/errors.ts";
import { isLoopback } from "../config.ts";

export interface SecurityOptions {
  development: boolean;
  bindHost: string;
  allowedHosts: string[];
  allowedOrigins: string[];
  apiToken: string | null;
  /** The port actually listened on (known after listen; tests use port 0). */
  port: () => number;
}

export function securityHeaders(development: boolean) {
  const csp = [
    "default-src 'self'",
    `script-src 'self'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join("; ");
  return async (ctx: Context, next: Next) => {
    ctx.set("Content-Security-Policy", csp);
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Referrer-Policy", "no-referrer");
    ctx.set("X-Frame-Options", "DENY");
    ctx.set("Cache-Control", "no-store");
    await next();
  };
}

function hostName(hostHeader: string): string {
  if (hostHeader.startsWith("[")) return hostHeader.slice(1, hostHeader.indexOf("]"));
  return hostHeader.split(":")[0]!;
}

function constantTimeEquals(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}

export function accessChecks(options: SecurityOptions) {
  const extraHosts = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
  if (!isLoopback(options.bindHost) && options.bindHost !== "0.0.0.0" && options.bindHost !== "::") extraHosts.add(options.bindHost.toLowerCase());
  const configuredOrigins = new Set(options.allowedOrigins);

  const originAllowed = (origin: string) => {
    const port = options.port();
    return (
      configuredOrigins.has(origin) ||
      origin === `http://127.0.0.1:${port}` ||
      origin === `http://localhost:${port}` ||
      origin === `http://[::1]:${port}`
    );
  };

  return async (ctx: Context, next: Next) => {
    const hostHeader = ctx.get("host");
    if (hostHeader) {
      const name = hostName(hostHeader).toLowerCase();
      if (!isLoopback(name) && !extraHosts.has(name)) throw hostErrors.HOST_NOT_ALLOWED();
    }

    if (options.apiToken) {
      const header = ctx.get("authorization");
      const match = /^Bearer (.+)$/.exec(header);
      if (!match || !constantTimeEquals(match[1]!, options.apiToken)) {
        throw hostErrors.UNAUTHORIZED({}, { headers: { "WWW-Authenticate": 'Bearer realm="muster"' } });
      }
    }

    const origin = ctx.get("origin");
    if (origin && ctx.path.startsWith("/api/")) {
      if (!originAllowed(origin)) throw hostErrors.ORIGIN_NOT_ALLOWED();
      ctx.set("Access-Control-Allow-Origin", origin);
      ctx.set("Vary", "Origin");
      if (ctx.method === "OPTIONS") {
        ctx.set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
        ctx.set("Access-Control-Allow-Headers", "Content-Type, X-Session-Token, X-Agent-Id, Last-Event-ID, Authorization");
        ctx.set("Access-Control-Max-Age", "600");
        ctx.status = 204;
        return;
      }
    }
    await next();
  };
}
