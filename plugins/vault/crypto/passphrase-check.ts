// `muster doctor`'s vault key check: whether a passphrase is the one the vault's secrets are
// stored under, told by the key check value in vault_meta (never by decrypting a secret).
// Opens the database file read-only; the caller never does so beside a running server.
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { deriveKey, matchesKeyCheck } from "./kdf.ts";
import { readMeta } from "./meta.ts";

/** `uninitialised`: no database or no key yet (the first start with a passphrase stores its check). */
export type PassphraseVerdict = "match" | "mismatch" | "uninitialised" | "damaged";

export async function checkPassphrase(dbPath: string, passphrase: string): Promise<PassphraseVerdict> {
  if (!existsSync(dbPath)) return "uninitialised";
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'vault_meta'").get();
    if (!hasTable) return "uninitialised";
    const meta = readMeta(db);
    if (meta === null) return "uninitialised";
    if (meta === "invalid") return "damaged";
    const key = await deriveKey(passphrase, meta.salt, meta.kdf);
    try {
      return matchesKeyCheck(key, meta.keyCheck) ? "match" : "mismatch";
    } finally {
      key.fill(0);
    }
  } finally {
    db.close();
  }
}
