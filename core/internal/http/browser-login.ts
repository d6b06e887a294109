// How a human's browser gets a session without any endpoint handing out the session token
// (DESIGN §6): one-time login codes, printed at start or minted by `muster login`, are
// exchanged at `GET /login?code=…` for a browser-session cookie. The cookie holds its own
// random secret (never the file token), so it proves only "this browser logged in".
//
// The cookie alone is not enough: browsers send 127.0.0.1 cookies to every port, so any
// local server the human's browser visits (an agent's dev server) receives it and can
// replay it with a forged Origin. Each session therefore also gets a CSRF secret that
// travels only in the login redirect's URL fragment (`/#csrf=…`, never sent to any server);
// the dashboard keeps it in sessionStorage and sends it as `X-Muster-Csrf`.
import { createHash, randomBytes } from "node:crypto";
import { constantTimeEqual } from "../../plugin-api/helpers.ts";

export const SESSION_COOKIE = "muster_session";

/** How long a login code can be used. */
export const LOGIN_CODE_TTL_MS = 10 * 60_000;
/** Outstanding codes and live browser sessions kept; the oldest go first beyond these. */
const MAX_CODES = 32;
const MAX_SESSIONS = 64;

export interface LoginLink {
  url: string;
  /** ISO 8601 expiry of the code. */
  expiresAt: string;
}

/** The two secrets of a browser session: the cookie value and the header-only CSRF secret. */
export interface BrowserSession {
  session: string;
  csrf: string;
}

export interface BrowserLogin {
  /** A new single-use code, as the link a human opens. */
  issue(baseUrl: string): LoginLink;
  /**
   * Consumes a code. Returns a new browser session's secrets, or null for an unknown, used or
   * expired code (at once in one process; in team mode after the database spent it).
   */
  redeem(code: string): BrowserSession | null | Promise<BrowserSession | null>;
  sessionValid(secret: string): boolean;
  /** Whether `csrf` is the CSRF secret of the session whose cookie value is `secret` (not of any other). */
  csrfMatches(secret: string, csrf: string): boolean;
}

// Only hashes are kept, and lookups go through a Map keyed by the hash: a lookup by hash
// leaks nothing useful about the secret through its timing.
const digest = (value: string) => createHash("sha256").update(value).digest("hex");

/** One process's logins, kept in memory (team mode: team-browser-login.ts). */
export function createBrowserLogin(deps: { now?: () => number } = {}): Omit<BrowserLogin, "redeem"> & { redeem(code: string): BrowserSession | null } {
  const now = deps.now ?? Date.now;
  const codes = new Map<string, number>(); // hash -> expiry (ms)
  const sessions = new Map<string, string>(); // session hash -> its CSRF secret's hash

  const bounded = <T>(collection: Map<string, T> | Set<string>, max: number) => {
    while (collection.size > max) collection.delete(collection.keys().next().value!);
  };

  return {
    issue(baseUrl) {
      for (const [hash, expires] of codes) if (expires <= now()) codes.delete(hash);
      const code = randomBytes(24).toString("base64url");
      const expires = now() + LOGIN_CODE_TTL_MS;
      codes.set(digest(code), expires);
      bounded(codes, MAX_CODES);
      return { url: `${baseUrl}/login?code=${code}`, expiresAt: new Date(expires).toISOString() };
    },
    redeem(code) {
      const hash = digest(code);
      const expires = codes.get(hash);
      // Deleted before the expiry test: a code is gone after its first use, valid or late.
      codes.delete(hash);
      if (expires === undefined || expires <= now()) return null;
      const session = randomBytes(32).toString("base64url");
      const csrf = randomBytes(32).toString("base64url");
      sessions.set(digest(session), digest(csrf));
      bounded(sessions, MAX_SESSIONS);
      return { session, csrf };
    },
    sessionValid(secret) {
      return sessions.has(digest(secret));
    },
    csrfMatches(secret, csrf) {
      const expected = sessions.get(digest(secret));
      return expected !== undefined && constantTimeEqual(digest(csrf), expected);
    },
  };
}
