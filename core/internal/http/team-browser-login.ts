// Browser login in team mode (several instances on one PostgreSQL database, docs/team.md):
// a login link printed by one instance must work on whichever instance the load balancer
// sends the browser to, and so must the session cookie and its CSRF secret afterwards. The
// rules of browser-login.ts hold (single-use codes for 10 minutes, a cookie that holds only
// its own secret, a CSRF secret that travels only in the redirect's fragment); what changes
// is where the state lives:
// - codes and sessions are signed with one key shared through the database (HMAC-SHA256),
//   so any instance checks them without a lookup;
// - a code is spent by inserting its nonce into `muster_login_codes` (the first insert wins),
//   so it works once across all instances;
// - the CSRF secret is derived from the session's id with the key, so nothing is stored.
// A session lasts SESSION_TTL_MS (it survives restarts, unlike the in-memory one); removing
// the key's row (`muster_secrets`, name `browser-login-key`) and restarting every instance
// ends them all.
import { createHmac, randomBytes } from "node:crypto";
import { constantTimeEqual } from "../../plugin-api/helpers.ts";
import { LOGIN_CODE_TTL_MS, type BrowserLogin, type BrowserSession } from "./browser-login.ts";

/** How long a browser session signed in team mode is valid. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60_000;

export interface TeamBrowserLoginDeps {
  /** The deployment's signing key (hex), shared by every instance. */
  key: string;
  /** Spends a code's nonce: true for the first call with it across all instances. */
  spend(nonce: string, expiresAtMs: number): Promise<boolean>;
  now?: () => number;
}

export function createTeamBrowserLogin(deps: TeamBrowserLoginDeps): BrowserLogin {
  const now = deps.now ?? Date.now;
  const mac = (purpose: string, ...parts: string[]) => createHmac("sha256", deps.key).update([purpose, ...parts].join("|")).digest("base64url");
  /** `<id>.<expiry ms>.<mac>`, parsed once and checked in constant time; its id and expiry when valid and unexpired. */
  const open = (purpose: string, token: string): { id: string; expiresAtMs: number } | null => {
    const [id, expires, signature, extra] = token.split(".");
    if (!id || !expires || !signature || extra !== undefined || !/^\d{1,15}$/.test(expires)) return null;
    if (!constantTimeEqual(signature, mac(purpose, id, expires))) return null;
    const expiresAtMs = Number(expires);
    return expiresAtMs > now() ? { id, expiresAtMs } : null;
  };
  const sign = (purpose: string, id: string, expires: number) => `${id}.${expires}.${mac(purpose, id, String(expires))}`;
  const csrfOf = (sessionId: string) => mac("csrf", sessionId);

  return {
    issue(baseUrl) {
      const expires = now() + LOGIN_CODE_TTL_MS;
      const code = sign("code", randomBytes(16).toString("base64url"), expires);
      return { url: `${baseUrl}/login?code=${code}`, expiresAt: new Date(expires).toISOString() };
    },
    async redeem(code): Promise<BrowserSession | null> {
      const opened = open("code", code);
      if (!opened || !(await deps.spend(opened.id, opened.expiresAtMs))) return null;
      const sessionId = randomBytes(24).toString("base64url");
      return { session: sign("session", sessionId, now() + SESSION_TTL_MS), csrf: csrfOf(sessionId) };
    },
    sessionValid(secret) {
      return open("session", secret) !== null;
    },
    csrfMatches(secret, csrf) {
      const session = open("session", secret);
      return session !== null && typeof csrf === "string" && constantTimeEqual(csrf, csrfOf(session.id));
    },
  };
}
