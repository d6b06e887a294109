import { randomBytes } from "node:crypto";
import { atomically, defineStore, type Database, type EntityStore } from "@muster/plugin";
import { LicenceChallenge } from "../entities/licence-challenge.ts";
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

/** By nonce; text and number columns only, so rows need no mapping. */
const challenges = defineStore(LicenceChallenge, { key: "nonce", mapRows: false });

/**
 * The server side of pack licence proofs: this instance's EIP-712 salt, and single-use nonces bound to a pack,
 * a template and a holder. A nonce is spent the first time a proof names it, whatever the outcome, so a
 * signature can never be presented twice. Driver-neutral (SQLite and PostgreSQL): the spend is the store kit's
 * `transition` (`usedAt IS NULL` → now, one conditional UPDATE, so of concurrent spends exactly one wins);
 * an issue (the expired sweep and the insert) is one atomic step.
 */
export class LicenceChallenges {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof LicenceChallenge, "nonce">;
  /** The salt never changes once the migration made it: read once. */
  private salt: Promise<`0x${string}`> | undefined;
  constructor(db: () => Database) {
    this.db = db;
    this.rows = challenges.on(db);
  }

  /** This Muster's stable instance id (the EIP-712 domain salt), made by the migration. */
  instanceId(): Promise<`0x${string}`> {
    this.salt ??= atomically(this.db(), (tx) => tx.get<{ salt: `0x${string}` }>("SELECT salt FROM agents_licence_instance WHERE id = 1")).then((row) => {
      if (!row) throw new Error("agents_licence_instance has no row: migration 003-licence-challenges did not run");
      return row.salt;
    });
    this.salt.catch(() => (this.salt = undefined));
    return this.salt;
  }

  /** Issues a fresh nonce for `holder` to prove it may install `pack`; expired challenges are dropped. */
  async issue(pack: string, templateId: string, holder: string, ttlSeconds: number, nowSeconds = Math.floor(Date.now() / 1000)): Promise<LicenceChallengeRow> {
    const row: LicenceChallengeRow = { nonce: `0x${randomBytes(32).toString("hex")}`, pack, templateId, holder: holder.toLowerCase() as `0x${string}`, expiresAt: nowSeconds + ttlSeconds };
    await atomically(this.db(), function* (tx) {
      yield* tx.run(`DELETE FROM agents_licence_challenges WHERE "expiresAt" < ?`, [nowSeconds]);
      yield* tx.run(`INSERT INTO agents_licence_challenges (nonce, pack, "templateId", holder, "expiresAt") VALUES (?, ?, ?, ?, ?)`, [row.nonce, row.pack, row.templateId, row.holder, row.expiresAt]);
    });
    return row;
  }

  /**
   * Spends `nonce` (atomically: of any number of requests naming it, one gets the row) and returns what it was issued for.
   * 403 LICENSE_PROOF_REPLAYED when it was spent before, LICENSE_PROOF_INVALID when this server never issued it.
   */
  async spend(pack: string, nonce: string): Promise<LicenceChallengeRow> {
    const key = nonce.toLowerCase();
    const spent = await this.rows.transition(key, { from: { usedAt: null }, set: { usedAt: new Date().toISOString() } });
    if (spent) return { nonce: spent.nonce as `0x${string}`, pack: spent.pack, templateId: spent.templateId, holder: spent.holder as `0x${string}`, expiresAt: spent.expiresAt };
    if (!(await this.rows.get(key))) throw agentsErrors.LICENSE_PROOF_INVALID({ name: pack, reason: "this Muster never issued its nonce (or it expired long ago)" });
    throw agentsErrors.LICENSE_PROOF_REPLAYED({ nonce: key });
  }
}
