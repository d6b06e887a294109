// The vault_meta rows: salt, scrypt parameters, key check value and key id. The running
// server reads them at start through the store kit (services/keyring.ts) and parses them
// with `parseMeta`. Writes (the first key, a rotation) and the key id checked in the same step
// as a secret's write or read are statements of the kit's `atomically` steps, the same SQL on
// SQLite and PostgreSQL (`writeMeta`, `keyIdStatement`); `muster vault rotate` and the doctor
// check read them with `readMetaOn` on the database they open (the SQLite file, or
// DATABASE_URL's PostgreSQL). `currentKeyId` is plain SQL on the SQLite server's connection,
// for its synchronous members (the redaction's value list, `VAULT_SECRETS.get`).
import { randomUUID } from "node:crypto";
import { atomically, type AtomicStatementStep, type AtomicTx, type Database } from "@muster/plugin";
import type { VaultMetaRow } from "../entities/vault-meta.ts";
import { DEFAULT_KDF, deriveKey, keyCheckValue, newSalt, parseKdfParams, SALT_BYTES, type KdfParams } from "./kdf.ts";

type Sql = Database["sql"];

export interface VaultMeta {
  salt: Buffer;
  kdf: KdfParams;
  keyCheck: string;
  /** Random id of the current key; a rotation changes it, so a running server notices. */
  keyId: string;
}

/** The meta rows parsed: `null` when there are none; `"invalid"` when they are damaged. */
export function parseMeta(rows: readonly VaultMetaRow[]): VaultMeta | null | "invalid" {
  if (rows.length === 0) return null;
  const m = new Map(rows.map((r) => [r.key, r.value]));
  const salt = m.get("salt");
  const kdf = parseKdfParams(m.get("kdf"));
  const keyCheck = m.get("keyCheck");
  const keyId = m.get("keyId");
  if (!salt || !new RegExp(`^[0-9a-f]{${SALT_BYTES * 2}}$`).test(salt) || !kdf || !keyCheck || !keyId) return "invalid";
  return { salt: Buffer.from(salt, "hex"), kdf, keyCheck, keyId };
}

/** How many of the vault's two tables exist, on each engine. */
const VAULT_TABLES = {
  sqlite: "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('vault_secrets', 'vault_meta')",
  postgresql: "SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name IN ('vault_secrets', 'vault_meta')",
};

/**
 * For `muster vault rotate` and the doctor check, which open the database themselves: the key
 * metadata as {@link parseMeta} says it, or `"no-vault"` when the vault's tables do not exist.
 */
export async function readMetaOn(db: Database): Promise<VaultMeta | null | "invalid" | "no-vault"> {
  const tables = await atomically(db, (tx) => tx.get<{ n: number | string }>(VAULT_TABLES[db.engine ?? "sqlite"]));
  // PostgreSQL's count(*) is a bigint its driver reads as a string.
  if (Number(tables?.n) !== 2) return "no-vault";
  return parseMeta(await atomically(db, (tx) => tx.all<VaultMetaRow>("SELECT key, value FROM vault_meta")));
}

/** `atomically` on a better-sqlite3 handle the command opened: on SQLite the step needs only the connection. */
export function sqliteHandle(sql: Sql): Database {
  return { engine: "sqlite", sql } as Database;
}

const PUT_META = "INSERT INTO vault_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value";

/** Replaces the meta rows, as statements of the atomic step that re-encrypts (if any). */
export function* writeMeta(tx: AtomicTx, meta: VaultMeta): AtomicStatementStep<void> {
  yield* tx.run(PUT_META, ["salt", meta.salt.toString("hex")]);
  yield* tx.run(PUT_META, ["kdf", JSON.stringify(meta.kdf)]);
  yield* tx.run(PUT_META, ["keyCheck", meta.keyCheck]);
  yield* tx.run(PUT_META, ["keyId", meta.keyId]);
}

const KEY_ID = "SELECT value FROM vault_meta WHERE key = 'keyId'";

/**
 * The key id read of a step that writes or reads a secret under the key. On PostgreSQL it
 * holds the row `FOR SHARE` until the step commits: a rotation (which writes that row first)
 * waits for the steps under the old key, and the steps after it wait for the rotation and
 * then read the new id. On SQLite the step already runs alone on the server's connection.
 */
export function keyIdStatement(db: Database): string {
  return db.engine === "postgresql" ? `${KEY_ID} FOR SHARE` : KEY_ID;
}

/**
 * A rotation's first statement: writes the key id row to itself, which takes SQLite's write
 * lock before anything is read (as `BEGIN IMMEDIATE` did: no server write lands between
 * reading a row and replacing it) and PostgreSQL's lock on that row (steps under the old key
 * finish first; later ones wait and then see the new id).
 */
export const LOCK_KEY_ID = "UPDATE vault_meta SET value = value WHERE key = 'keyId'";

/** The key id statement of each connection: it runs on every use of the key, so it is prepared once. */
const keyIdStatements = new WeakMap<Sql, { get(): unknown }>();

/** The stored key id, read synchronously on a SQLite connection. */
export function currentKeyId(sql: Sql): string | undefined {
  let statement = keyIdStatements.get(sql);
  if (!statement) keyIdStatements.set(sql, (statement = sql.prepare(KEY_ID)));
  return (statement.get() as Pick<VaultMetaRow, "value"> | undefined)?.value;
}

/** A fresh key from a passphrase: new salt, default parameters, its check value and id. */
export async function freshKey(passphrase: string): Promise<{ key: Buffer; meta: VaultMeta }> {
  const salt = newSalt();
  const key = await deriveKey(passphrase, salt, DEFAULT_KDF);
  return { key, meta: { salt, kdf: DEFAULT_KDF, keyCheck: keyCheckValue(key), keyId: randomUUID() } };
}
