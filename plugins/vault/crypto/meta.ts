// The vault_meta rows: salt, scrypt parameters, key check value and key id. The running
// server reads them at start through the store kit (services/keyring.ts) and parses them
// with `parseMeta`; `muster vault rotate` and the doctor check open the database file
// themselves, without MikroORM, so `readMeta`/`writeMeta` are plain SQL on a better-sqlite3
// handle; and `currentKeyId` runs inside the synchronous transactions of the secret store and
// the rotation (the key id checked in the same step as the write), so it is too.
import { randomUUID } from "node:crypto";
import type { Database } from "@muster/plugin";
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

/** `null` when the vault was never initialised; `"invalid"` when the rows are damaged. */
export function readMeta(sql: Sql): VaultMeta | null | "invalid" {
  return parseMeta(sql.prepare("SELECT key, value FROM vault_meta").all() as VaultMetaRow[]);
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

/** Replaces the meta rows; call inside the transaction that re-encrypts (if any). */
export function writeMeta(sql: Sql, meta: VaultMeta): void {
  const put = sql.prepare("INSERT INTO vault_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
  put.run("salt", meta.salt.toString("hex"));
  put.run("kdf", JSON.stringify(meta.kdf));
  put.run("keyCheck", meta.keyCheck);
  put.run("keyId", meta.keyId);
}

/** The key id statement of each connection: it runs on every use of the key, so it is prepared once. */
const keyIdStatements = new WeakMap<Sql, { get(): unknown }>();

export function currentKeyId(sql: Sql): string | undefined {
  let statement = keyIdStatements.get(sql);
  if (!statement) keyIdStatements.set(sql, (statement = sql.prepare("SELECT value FROM vault_meta WHERE key = 'keyId'")));
  return (statement.get() as Pick<VaultMetaRow, "value"> | undefined)?.value;
}

/** A fresh key from a passphrase: new salt, default parameters, its check value and id. */
export async function freshKey(passphrase: string): Promise<{ key: Buffer; meta: VaultMeta }> {
  const salt = newSalt();
  const key = await deriveKey(passphrase, salt, DEFAULT_KDF);
  return { key, meta: { salt, kdf: DEFAULT_KDF, keyCheck: keyCheckValue(key), keyId: randomUUID() } };
}
