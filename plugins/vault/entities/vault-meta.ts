import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * Key material that is not secret, one row per `key`: the scrypt salt and parameters, the
 * key check value and the id of the current key (crypto/meta.ts). The one declaration of
 * `vault_meta` (migrations.ts creates it; a test checks they agree).
 */
export const VaultMetaEntry = defineEntity({
  name: "VaultMetaEntry",
  tableName: "vault_meta",
  properties: {
    key: p.string().primary(),
    value: p.string(),
  },
});

export type VaultMetaRow = EntityRow<typeof VaultMetaEntry>;
