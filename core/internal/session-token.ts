// The per-process session token: new at every start (in team mode the deployment's, kept in
// the database: team-secrets.ts), written with mode 0600 so local
// tools can read it (MUSTER_HOME 0700), required for destructive operations, compared in
// constant time. No endpoint hands it out; browsers log in through a one-time link.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { constantTimeEqual } from "../plugin-api/helpers.ts";
import { ensurePrivateDir, ensurePrivateFiles } from "./private-files.ts";

export interface SessionToken {
  value: string;
  path: string;
  /** Constant-time comparison; both sides are hashed first so length leaks nothing. */
  matches(candidate: string | undefined | null): boolean;
}

/**
 * Writes this start's token to the home: a new one, or in team mode the deployment's
 * (`value`, shared by every instance through the database, so a client's token works on
 * whichever instance answers).
 */
export function createSessionToken(home: string, value = randomBytes(32).toString("hex")): SessionToken {
  ensurePrivateDir(home);
  const path = join(home, "session-token");
  // An existing file keeps its old mode on write: tighten it before the new token goes in.
  ensurePrivateFiles([path]);
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return {
    value,
    path,
    matches(candidate) {
      if (typeof candidate !== "string" || candidate.length === 0) return false;
      return constantTimeEqual(candidate, value);
    },
  };
}
