// Team mode: the secrets every instance of one deployment must share, kept in PostgreSQL
// (`muster_secrets`, created with the host's tables in postgres-database.ts): the session
// token (so a client's X-Session-Token works on whichever instance answers) and the browser
// login key (team-browser-login.ts). The first instance to start makes each one; the others
// read it. `muster_login_codes` holds the spent login codes until they expire.
import { randomBytes } from "node:crypto";
import type { OpenedDatabase } from "./database.ts";
import { createTeamBrowserLogin } from "./http/team-browser-login.ts";
import type { BrowserLogin } from "./http/browser-login.ts";

async function sharedSecret(db: OpenedDatabase, name: string): Promise<string> {
  const connection = db.orm.em.getConnection();
  await connection.execute(`INSERT INTO muster_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, [name, randomBytes(32).toString("hex")]);
  const [row] = (await connection.execute(`SELECT value FROM muster_secrets WHERE name = ?`, [name])) as { value: string }[];
  return row!.value;
}

/** The deployment's session token and browser login, shared by every instance on this database. */
export async function teamSessions(db: OpenedDatabase): Promise<{ sessionToken: string; login: BrowserLogin }> {
  const connection = db.orm.em.getConnection();
  const [sessionToken, key] = [await sharedSecret(db, "session-token"), await sharedSecret(db, "browser-login-key")];
  const login = createTeamBrowserLogin({
    key,
    async spend(nonce, expiresAtMs) {
      // Spent codes are kept only until they would have expired anyway.
      await connection.execute(`DELETE FROM muster_login_codes WHERE "expiresAt" < ?`, [Date.now()]);
      const result = (await connection.execute(`INSERT INTO muster_login_codes (nonce, "expiresAt") VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING`, [nonce, expiresAtMs], "run")) as { affectedRows: number };
      return result.affectedRows === 1;
    },
  });
  return { sessionToken, login };
}
