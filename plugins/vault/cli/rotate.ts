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

/** A refusal with a stable code; nothing was changed when it is thrown. */
export class RotateError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
    this.name = "RotateError";
  }
}

export interface RotateOptions {
  /** `$MUSTER_HOME/muster.db`. */
  dbPath: string;
  /** The passphrase the secrets are stored under now. */
  current: { value: string; source: PassphraseSource } | null;
  /** The passphrase to store them under. */
  next: string;
}

/** Returns how many secrets were re-encrypted. Throws {@link RotateError} and changes nothing on any problem. */
export async function rotateVault({ dbPath, current, next }: RotateOptions): Promise<{ rotated: number }> {
  if (!existsSync(dbPath)) throw new RotateError("VAULT_NO_DATABASE", `There is no database at ${dbPath}; check MUSTER_HOME`);
  if (!next) throw new RotateError("VAULT_NEW_KEY_MISSING", "The new passphrase is empty");
  const db = new Database(dbPath, { fileMustExist: true });
  let oldKey: Buffer | undefined;
  let newKey: Buffer | undefined;
  try {
    db.pragma("busy_timeout = 5000");
    const tables = db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('vault_secrets', 'vault_meta')").get() as { n: number };
    if (tables.n !== 2) throw new RotateError("VAULT_NOT_INITIALISED", "This database has no vault yet: start Muster once with VAULT_KEY set");
    const meta = readMeta(db);
    if (meta === null) {
      throw new RotateError("VAULT_NOT_INITIALISED", "The vault has no key yet, so there is nothing to rotate: start Muster with VAULT_KEY set to the passphrase you want");
    }
    if (meta === "invalid") throw new RotateError("VAULT_WRONG_KEY", "The vault's key metadata (table vault_meta) is damaged; nothing was changed");
    if (!current) throw new RotateError("VAULT_LOCKED", "Set VAULT_KEY (or GATEWAY_TOKEN) to the current passphrase, and NEW_VAULT_KEY (or stdin) to the new one");
    oldKey = await deriveKey(current.value, meta.salt, meta.kdf);
    if (!matchesKeyCheck(oldKey, meta.keyCheck)) {
      throw new RotateError("VAULT_WRONG_KEY", `The passphrase in ${current.source} is not the one the secrets are stored under; nothing was changed`);
    }
    const fresh = await freshKey(next);
    newKey = fresh.key;
    const keys = { oldKey, newKey };
    // IMMEDIATE: the write lock is taken before reading, so no server write can land between
    // reading a row and replacing it. Any throw rolls the whole rotation back.
    const rotate = db.transaction(() => {
      if (currentKeyId(db) !== meta.keyId) throw new RotateError("VAULT_ROTATION_CONFLICT", "The vault was re-keyed by someone else meanwhile; nothing was changed");
      const rows = db.prepare("SELECT id, name, ciphertext, iv, tag FROM vault_secrets ORDER BY rowid").all() as (Sealed & { id: string; name: string })[];
      const update = db.prepare("UPDATE vault_secrets SET ciphertext = @ciphertext, iv = @iv, tag = @tag WHERE id = @id");
      for (const row of rows) {
        let value: string;
        try {
          value = open(keys.oldKey, row, row);
        } catch (error) {
          if (!(error instanceof SealBrokenError)) throw error;
          throw new RotateError(
            "VAULT_SECRET_CORRUPTED",
            `Secret ${row.name} cannot be decrypted (altered or moved); nothing was changed. Delete it or store it again, then rotate`,
          );
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
