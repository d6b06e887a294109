import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * One stored secret: the one declaration of `vault_secrets` (migrations.ts creates it; a
 * test checks they agree). `ciphertext`, `iv` and `tag` are lower-case hex of the
 * AES-256-GCM seal (crypto/cipher.ts); the value itself is never stored.
 */
export const VaultSecret = defineEntity({
  name: "VaultSecret",
  tableName: "vault_secrets",
  properties: {
    id: p.string().primary(),
    // UNIQUE in the migration (an implicit SQLite index, which schema comparison does not list).
    name: p.string().unique(),
    description: p.string().nullable(),
    category: p.string().default("api_key"),
    createdBy: p.string(),
    ciphertext: p.string(),
    iv: p.string(),
    tag: p.string(),
    createdAt: p.string(),
    updatedAt: p.string(),
    lastAccessedAt: p.string().nullable(),
  },
});

/** A stored secret as the query builder returns it, seal included. */
export type VaultSecretRow = EntityRow<typeof VaultSecret>;
