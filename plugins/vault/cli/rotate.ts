// `muster vault rotate`: re-encrypts every secret under a new passphrase in one
// transaction, with a new salt, key check value and key id. It opens the database itself: the
// home's SQLite file, or with DATABASE_URL the PostgreSQL database (the CLI opens it); the
// rotation is one `atomically` step, the same statements on both. A server still running on
// the same database notices the new key id and locks its vault (VAULT_WRONG_KEY) instead of
// writing with the old key.
import { existsSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { atomically, type AtomicStatementStep, type AtomicTx, type Database } from "@muster/plugin";
import { open, seal, SealBrokenError, type Sealed } from "../crypto/cipher.ts";
import { deriveKey, matchesKeyCheck } from "../crypto/kdf.ts";
import { freshKey, keyIdStatement, LOCK_KEY_ID, readMetaOn, sqliteHandle, writeMeta, type VaultMeta } from "../crypto/meta.ts";
import type { PassphraseSource } from "../services/keyring.ts";
import { vaultCommandErrors, vaultErrors } from "../errors.ts";

export interface RotateOptions {
  /** `$MUSTER_HOME/muster.db`, used when `postgres` is not given. */
  dbPath: string;
  /** The PostgreSQL database (DATABASE_URL), opened by the CLI; the caller closes it. */
  postgres?: Database | null;
  /** The passphrase the secrets are stored under now. */
  current: { value: string; source: PassphraseSource } | null;
  /** The passphrase to store them under. */
  next: string;
}

/** Returns how many secrets were re-encrypted. Throws a coded MusterError (vaultCommandErrors, vaultErrors) and changes nothing on any problem. */
export async function rotateVault({ dbPath, postgres, current, next }: RotateOptions): Promise<{ rotated: number }> {
  if (!postgres && !existsSync(dbPath)) throw vaultCommandErrors.VAULT_NO_DATABASE({ path: dbPath });
  if (!next) throw vaultCommandErrors.VAULT_NEW_KEY_MISSING();
  if (postgres) return rotateOn(postgres, current, next);
  const sql = new BetterSqlite3(dbPath, { fileMustExist: true });
  try {
    sql.pragma("busy_timeout = 5000");
    return await rotateOn(sqliteHandle(sql), current, next);
  } finally {
    sql.close();
  }
}

async function rotateOn(db: Database, current: RotateOptions["current"], next: string): Promise<{ rotated: number }> {
  const meta = await readMetaOn(db);
  if (meta === "no-vault") throw vaultCommandErrors.VAULT_NOT_INITIALISED({ reason: "This database has no vault yet" });
  if (meta === null) throw vaultCommandErrors.VAULT_NOT_INITIALISED({ reason: "The vault has no key yet, so there is nothing to rotate" });
  if (meta === "invalid") throw vaultErrors.VAULT_WRONG_KEY({ reason: "its key metadata (table vault_meta) is damaged; nothing was changed" });
  if (!current) throw vaultErrors.VAULT_LOCKED({ remedy: "Set VAULT_KEY (or GATEWAY_TOKEN) to the current passphrase, and NEW_VAULT_KEY (or stdin) to the new one" });
  let oldKey: Buffer | undefined;
  let newKey: Buffer | undefined;
  try {
    oldKey = await deriveKey(current.value, meta.salt, meta.kdf);
    if (!matchesKeyCheck(oldKey, meta.keyCheck)) {
      throw vaultErrors.VAULT_WRONG_KEY({ reason: `the passphrase in ${current.source} is not the one the secrets are stored under; nothing was changed` });
    }
    const fresh = await freshKey(next);
    newKey = fresh.key;
    const keys = { oldKey, newKey };
    return { rotated: await atomically(db, (tx) => rotationSteps(tx, db, meta, keys, fresh.meta)) };
  } finally {
    oldKey?.fill(0);
    newKey?.fill(0);
  }
}

/** The rotation as one step: any throw rolls every re-encrypted row and the key rows back. */
function* rotationSteps(tx: AtomicTx, db: Database, meta: VaultMeta, keys: { oldKey: Buffer; newKey: Buffer }, fresh: VaultMeta): AtomicStatementStep<number> {
  // First the key id row's lock, then the reads: no server write lands between reading a row and replacing it.
  yield* tx.run(LOCK_KEY_ID);
  if ((yield* tx.get<{ value: string }>(keyIdStatement(db)))?.value !== meta.keyId) throw vaultCommandErrors.VAULT_ROTATION_CONFLICT();
  const rows = yield* tx.all<Sealed & { id: string; name: string }>("SELECT id, name, ciphertext, iv, tag FROM vault_secrets ORDER BY name");
  for (const row of rows) {
    let value: string;
    try {
      value = open(keys.oldKey, row, row);
    } catch (error) {
      if (!(error instanceof SealBrokenError)) throw error;
      throw vaultErrors.VAULT_SECRET_CORRUPTED({
        name: row.name,
        reason: "it was altered or moved; nothing was changed. Delete it or store it again, then rotate",
      });
    }
    const sealed = seal(keys.newKey, row, value);
    yield* tx.run("UPDATE vault_secrets SET ciphertext = ?, iv = ?, tag = ? WHERE id = ?", [sealed.ciphertext, sealed.iv, sealed.tag, row.id]);
  }
  yield* writeMeta(tx, fresh);
  return rows.length;
}
