import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** This Muster's EIP-712 domain salt for pack licence proofs: one row, made by the migration. */
export const LicenceInstance = defineEntity({
  name: "LicenceInstance",
  tableName: "agents_licence_instance",
  properties: {
    id: p.integer().primary().autoincrement(false),
    salt: p.string(),
  },
});

/** A licence challenge issued for a pack install: single use (`usedAt`), bound to pack, template and holder. */
export const LicenceChallenge = defineEntity({
  name: "LicenceChallenge",
  tableName: "agents_licence_challenges",
  properties: {
    nonce: p.string().primary(),
    pack: p.string(),
    templateId: p.string(),
    holder: p.string(),
    /** Epoch seconds. */
    expiresAt: p.integer(),
    usedAt: p.string().nullable(),
  },
});

export type LicenceChallengeEntityRow = EntityRow<typeof LicenceChallenge>;
