// `muster vault rotate`: re-encrypts every secret under a new passphrase in one
// transaction, with a new salt, key check value and key id. It opens the database file
// itself; a server still running on the same home notices the new key id and locks its
// vault (VAULT_WRONG_KEY) instead of writing with the old key.
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { open, seal, SealBrokenError, type Sealed } from "../crypto/cipher.ts";
import { deriveKey, matchesKeyCheck } from "../crypto/kdf.ts";
import { currentKeyId, freshKey, readMeta, writeMeta } from "../crypto/meta.ts";
import type { PassphraseSource } from "../services/keyring.ts";
import { vaultCommandErrors, vaultErrors } from "../errors.ts";

export interface RotateOptions {
  /** `$MUSTER_HOME/muster.db`. */
  dbPath: string;
  /** The passphrase the secrets are stored under now. */
  current: { value: string; source: PassphraseSource } | null;
  /** The passphrase to store them under. */
  next: string;
}

/** Returns how many secrets were re-encrypted. Throws a coded MusterError (vaultCommandErrors, vaultErrors) and changes nothing on any problem. */
export async function rotateVault({ dbPath, current, next }: RotateOptions): Promise<{ rotated: number }> {
  if (!existsSync(dbPath)) throw vaultCommandErrors.VAULT_NO_DATABASE({ path: dbPath });
  if (!next) throw vaultCommandErrors.VAULT_NEW_KEY_MISSING();
  const db = new Database(dbPath, { fileMustExist: true });
  let oldKey: Buffer | undefined;
  let newKey: Buffer | undefined;
  try {
    db.pragma("busy_timeout = 5000");
    const tables = db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('vault_secrets', 'vault_meta')").get() as { n: number };
    if (tables.n !== 2) throw vaultCommandErrors.VAULT_NOT_INITIALISED({ reason: "This database has no vault yet" });
    const meta = readMeta(db);
    if (meta === null) {
      throw vaultCommandErrors.VAULT_NOT_INITIALISED({ reason: "The vault has no key yet, so there is nothing to rotate" });
    }
    if (meta === "invalid") throw vaultErrors.VAULT_WRONG_KEY({ reason: "its key metadata (table vault_meta) is damaged; nothing was changed" });
    if (!current) throw vaultErrors.VAULT_LOCKED({ remedy: "Set VAULT_KEY (or GATEWAY_TOKEN) to the current passphrase, and NEW_VAULT_KEY (or stdin) to the new one" });
    oldKey = await deriveKey(current.value, meta.salt, meta.kdf);
    if (!matchesKeyCheck(oldKey, meta.keyCheck)) {
      throw vaultErrors.VAULT_WRONG_KEY({ reason: `the passphrase in ${current.source} is not the one the secrets are stored under; nothing was changed` });
    }
    const fresh = await freshKey(next);
    newKey = fresh.key;
    const keys = { oldKey, newKey };
    // IMMEDIATE: the write lock is taken before reading, so no server write can land between
    // reading a row and replacing it. Any throw rolls the whole rotation back.
    const rotate = db.transaction(() => {
      if (currentKeyId(db) !== meta.keyId) throw vaultCommandErrors.VAULT_ROTATION_CONFLICT();
      const rows = db.prepare("SELECT id, name, ciphertext, iv, tag FROM vault_secrets ORDER BY rowid").all() as (Sealed & { id: string; name: string })[];
      const update = db.prepare("UPDATE vault_secrets SET ciphertext = @ciphertext, iv = @iv, tag = @tag WHERE id = @id");
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
        update.run({ id: row.id, ...seal(keys.newKey, row, value) });
      }
      writeMeta(db, fresh.meta);
      return rows.length;
    });
    return { rotated: rotate.immediate() };
  } finally {
    oldKey?.fill(0);
    newKey?.fill(0);
    db.close();
  }
}
