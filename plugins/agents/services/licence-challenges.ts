import { randomBytes } from "node:crypto";
import type { Database } from "@muster/plugin";
import { agentsErrors } from "../errors.ts";

/** A challenge as stored: what the proof must be signed for. */
export interface LicenceChallengeRow {
  nonce: `0x${string}`;
  pack: string;
  templateId: string;
  holder: `0x${string}`;
  /** Unix seconds. */
  expiresAt: number;
}

/**
 * The server side of pack licence proofs: this instance's EIP-712 salt, and single-use nonces bound to a pack,
 * a template and a holder. A nonce is spent the first time a proof names it, whatever the outcome, so a
 * signature can never be presented twice.
 */
export class LicenceChallenges {
  private readonly db: () => Database;
  constructor(db: () => Database) {
    this.db = db;
  }

  /** This Muster's stable instance id (the EIP-712 domain salt), made by the migration. */
  instanceId(): `0x${string}` {
    const row = this.db().sql.prepare("SELECT salt FROM agents_licence_instance WHERE id = 1").get() as { salt: `0x${string}` } | undefined;
    if (!row) throw new Error("agents_licence_instance has no row: migration 003-licence-challenges did not run");
    return row.salt;
  }

  /** Issues a fresh nonce for `holder` to prove it may install `pack`; expired challenges are dropped. */
  issue(pack: string, templateId: string, holder: string, ttlSeconds: number, nowSeconds = Math.floor(Date.now() / 1000)): LicenceChallengeRow {
    const row: LicenceChallengeRow = { nonce: `0x${randomBytes(32).toString("hex")}`, pack, templateId, holder: holder.toLowerCase() as `0x${string}`, expiresAt: nowSeconds + ttlSeconds };
    const sql = this.db().sql;
    sql.transaction(() => {
      sql.prepare("DELETE FROM agents_licence_challenges WHERE expiresAt < ?").run(nowSeconds);
      sql.prepare("INSERT INTO agents_licence_challenges (nonce, pack, templateId, holder, expiresAt) VALUES (?, ?, ?, ?, ?)").run(row.nonce, row.pack, row.templateId, row.holder, row.expiresAt);
    })();
    return row;
  }

  /**
   * Spends `nonce` (atomically: of two requests naming it, one gets the row) and returns what it was issued for.
   * 403 LICENSE_PROOF_REPLAYED when it was spent before, LICENSE_PROOF_INVALID when this server never issued it.
   */
  spend(pack: string, nonce: string): LicenceChallengeRow {
    const sql = this.db().sql;
    const key = nonce.toLowerCase();
    const spent = sql.prepare("UPDATE agents_licence_challenges SET usedAt = ? WHERE nonce = ? AND usedAt IS NULL").run(new Date().toISOString(), key);
    const row = sql.prepare("SELECT nonce, pack, templateId, holder, expiresAt FROM agents_licence_challenges WHERE nonce = ?").get(key) as LicenceChallengeRow | undefined;
    if (!row) throw agentsErrors.LICENSE_PROOF_INVALID({ name: pack, reason: "this Muster never issued its nonce (or it expired long ago)" });
    if (spent.changes === 0) throw agentsErrors.LICENSE_PROOF_REPLAYED({ nonce: key });
    return row;
  }
}
