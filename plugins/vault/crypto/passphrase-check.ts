// `muster doctor`'s vault key check: whether a passphrase is the one the vault's secrets are
// stored under, told by the key check value in vault_meta (never by decrypting a secret).
// Opens the SQLite file read-only, or with DATABASE_URL reads the PostgreSQL database the
// doctor opened; the caller never does so beside a running server.
import { existsSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import type { Database } from "@muster/plugin";
import { deriveKey, matchesKeyCheck } from "./kdf.ts";
import { readMetaOn, sqliteHandle } from "./meta.ts";

/** `uninitialised`: no database or no key yet (the first start with a passphrase stores its check). */
export type PassphraseVerdict = "match" | "mismatch" | "uninitialised" | "damaged";

/** Checks `passphrase` against the vault in `postgres`, else in the SQLite file at `dbPath`. */
export async function checkPassphrase(dbPath: string, passphrase: string, postgres?: Database | null): Promise<PassphraseVerdict> {
  let meta: Awaited<ReturnType<typeof readMetaOn>>;
  if (postgres) meta = await readMetaOn(postgres);
  else {
    if (!existsSync(dbPath)) return "uninitialised";
    const sql = new BetterSqlite3(dbPath, { readonly: true, fileMustExist: true });
    try {
      meta = await readMetaOn(sqliteHandle(sql));
    } finally {
      sql.close();
    }
  }
  if (meta === null || meta === "no-vault") return "uninitialised";
  if (meta === "invalid") return "damaged";
  const key = await deriveKey(passphrase, meta.salt, meta.kdf);
  try {
    return matchesKeyCheck(key, meta.keyCheck) ? "match" : "mismatch";
  } finally {
    key.fill(0);
  }
}
