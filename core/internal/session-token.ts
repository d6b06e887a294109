// The per-process session token: new at every start, written with mode 0600 so local
// tools can read it, required for destructive operations, compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";

export interface SessionToken {
  value: string;
  path: string;
  /** Constant-time comparison; both sides are hashed first so length leaks nothing. */
  matches(candidate: string | undefined | null): boolean;
}

export function createSessionToken(home: string): SessionToken {
  const value = randomBytes(32).toString("hex");
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = join(home, "session-token");
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // an existing file keeps its old mode on write
  const expected = createHash("sha256").update(value).digest();
  return {
    value,
    path,
    matches(candidate) {
      if (typeof candidate !== "string" || candidate.length === 0) return false;
      const given = createHash("sha256").update(candidate).digest();
      return timingSafeEqual(given, expected);
    },
  };
}
