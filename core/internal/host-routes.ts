// The host's own endpoints: health, browser login, the OpenAPI document, the plugin list.
import { z } from "zod";
import type { PluginRouter } from "../plugin-api/http.ts";
import { hostErrors } from "../plugin-api/errors.ts";
import type { SessionToken } from "./session-token.ts";
import { SESSION_COOKIE, type BrowserLogin } from "./http/browser-login.ts";
import { buildOpenApi } from "./http/openapi.ts";
import type { RouteRecord } from "./http/plugin-router.ts";
import type { DatabaseState } from "./database.ts";
import type { GatewayLinkStatus, GatewayStatus } from "../plugin-api/gateway.ts";

export const HOST_PATHS = ["/api/health", "/api/auth", "/api/openapi.json", "/api/plugins", "/login", "/mcp"];

export interface PluginSummary {
  id: string;
  version: string;
  source: string;
  paths: string[];
  dependsOn: string[];
  state: "started" | "stopped";
}

export interface HostRouteDeps {
  version: string;
  startedAt: number;
  url: () => string;
  databaseState: () => DatabaseState | Promise<DatabaseState>;
  session: SessionToken;
  login: BrowserLogin;
  routes: () => RouteRecord[];
  plugins: () => PluginSummary[];
  gateway: () => GatewayStatus;
  /** Each gateway link (DESIGN §16), in configured order. */
  gateways: () => GatewayLinkStatus[];
  watcher: () => "scanning" | "ready";
}

const gatewayState = z.enum(["connecting", "connected", "down", "unauthorized", "disabled"]);

const healthResponse = z.object({
  status: z.enum(["ok", "degraded"]),
  timestamp: z.string(),
  version: z.string(),
  uptimeMs: z.number().int(),
  database: z.enum(["ok", "degraded", "error"]),
  /** Present while writes fail: the code failing writes get, since when, and the latest failure. */
  databaseFault: z.object({ code: z.string(), since: z.string(), lastAt: z.string() }).optional(),
  /** The OpenClaw gateway link (DESIGN §14.1); its being down leaves `status` ok (Muster works without it). */
  gateway: z.object({
    state: gatewayState,
    url: z.string().nullable(),
    since: z.string(),
    lastError: z.string().optional(),
  }),
  /**
   * Each gateway link by name (several gateways, DESIGN §16; one entry, `default`, with one
   * gateway). `gateway` above is their aggregate: `connected` while any link is.
   */
  gateways: z.array(z.object({ name: z.string(), state: gatewayState, url: z.string().nullable(), since: z.string(), lastError: z.string().optional() })),
  /**
   * The workspace watcher's initial scan: `scanning` while it runs after the start (changes
   * meanwhile are still reported, from the scan), `ready` once every directory is watched.
   */
  watcher: z.enum(["scanning", "ready"]),
});

/**
 * The health answer: 200, or 503 when the database is not usable. From the host's state
 * alone, never waiting on a lock (a health check must answer while another process holds
 * one); on SQLite it is ready at once. The lean lane writes it without a Koa context
 * (`RouteTable.answerPlainly`).
 */
export function healthAnswer(deps: HealthDeps): HealthAnswer | Promise<HealthAnswer> {
  const state = deps.databaseState();
  return state instanceof Promise ? state.then((settled) => healthOf(deps, settled)) : healthOf(deps, state);
}

type HealthDeps = Pick<HostRouteDeps, "databaseState" | "version" | "startedAt" | "gateway" | "gateways" | "watcher">;
type HealthAnswer = ReturnType<typeof healthOf>;

function healthOf(deps: HealthDeps, { database, fault }: DatabaseState) {
  return {
    status: database === "ok" ? 200 : 503,
    body: {
      status: database === "ok" ? "ok" : "degraded",
      timestamp: new Date().toISOString(),
      version: deps.version,
      // Math.trunc of a whole number: without it V8 (Node 24) kept optimising this handler and
      // throwing the code away again at the subtraction (an eager "Smi" deopt, dozens of times
      // a second under load), so health ran mostly unoptimised.
      uptimeMs: Math.trunc(Date.now() - deps.startedAt),
      database,
      ...(fault ? { databaseFault: fault } : {}),
      gateway: deps.gateway(),
      gateways: deps.gateways(),
      watcher: deps.watcher(),
    },
  };
}

export function mountHostRoutes(router: PluginRouter, deps: HostRouteDeps): void {
  let openApiCache: unknown;
  router.get("/api/health", { summary: "Service health", query: z.strictObject({}), response: healthResponse, tags: ["host"] }, async ({ koa }) => {
    const { status, body } = await healthAnswer(deps);
    if (status !== 200) koa.status = status;
    return body;
  });

  // No endpoint hands out the session token (any local caller, agents included, could
  // fetch it). A holder of the token (the CLI reads the 0600 file) mints a login link for a
  // browser instead; agents never log in.
  router.post(
    "/api/auth/login-link",
    {
      summary: "A new one-time browser login link (X-Session-Token header only; refused with X-Agent-Id)",
      description: "What `muster login` calls. The link is valid once, for 10 minutes; opening it gives the browser an HttpOnly session cookie.",
      auth: "session",
      body: z.strictObject({}),
      response: z.object({ ok: z.literal(true), url: z.string(), expiresAt: z.string() }),
      tags: ["host"],
    },
    ({ agentId, koa }) => {
      if (agentId) throw hostErrors.AGENT_CANNOT_LOG_IN();
      // The header itself: a browser session must not extend itself into new links.
      if (!deps.session.matches(koa.get("x-session-token"))) throw hostErrors.SESSION_TOKEN_REQUIRED();
      return { ok: true, ...deps.login.issue(deps.url()) };
    },
  );

  router.get(
    "/login",
    {
      summary: "Exchanges a one-time login code for a browser session cookie, then redirects (303) to /#csrf=<secret>",
      description:
        "The session's CSRF secret rides only in the redirect's URL fragment (never sent to a server, so another local port that receives the cookie never sees it). The page reads it from location.hash into sessionStorage, removes it with history.replaceState, and sends it as X-Muster-Csrf with every cookie-authenticated request.",
      query: z.strictObject({ code: z.string().min(1).max(256) }),
      status: 303,
      raw: true,
      tags: ["host"],
    },
    async ({ query, agentId, koa }) => {
      if (agentId) throw hostErrors.AGENT_CANNOT_LOG_IN();
      const issued = await deps.login.redeem(query.code);
      if (!issued) throw hostErrors.LOGIN_CODE_INVALID();
      // No Secure flag: the server speaks plain http on loopback, where browsers would drop it.
      koa.cookies.set(SESSION_COOKIE, issued.session, { httpOnly: true, sameSite: "strict", path: "/", secure: false, overwrite: true });
      koa.status = 303;
      // The CSRF secret only in the fragment: servers on other ports of 127.0.0.1 get the
      // cookie, never this (see browser-login.ts).
      koa.redirect(`/#csrf=${issued.csrf}`);
    },
  );

  router.get("/api/openapi.json", { summary: "This API as an OpenAPI 3.1 document", query: z.strictObject({}), tags: ["host"] }, () => {
    openApiCache ??= buildOpenApi(deps.routes(), { version: deps.version, url: deps.url() });
    return openApiCache;
  });

  router.get(
    "/api/plugins",
    {
      summary: "Loaded plugins",
      query: z.strictObject({}),
      tags: ["host"],
      response: z.object({
        ok: z.literal(true),
        plugins: z.array(z.object({ id: z.string(), version: z.string(), source: z.string(), paths: z.array(z.string()), dependsOn: z.array(z.string()), state: z.string() })),
      }),
    },
    () => ({ ok: true, plugins: deps.plugins() }),
  );
}
