import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * Team mode (PostgreSQL): which variable an instance injected which secret under
 * (`POST /api/vault/inject`), so every instance's terminal commands get it, not only the
 * instance that answered. Names only, never a value: each instance takes the value from its
 * own view of the secrets. Counted only while the injecting instance lives (an injection ends
 * with its server, as on one process). Unused on SQLite (one process: the in-memory map is
 * all). The one declaration of `vault_injections` (migrations.ts creates it; a test checks
 * they agree).
 */
export const VaultInjection = defineEntity({
  name: "VaultInjection",
  tableName: "vault_injections",
  properties: {
    envVar: p.string().primary(),
    secret: p.string(),
    instanceId: p.string(),
    injectedAt: p.string(),
  },
});

export type VaultInjectionRow = EntityRow<typeof VaultInjection>;
