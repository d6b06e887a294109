/** Events the vault publishes. Created/updated/deleted are public; revealed/injected stay in-process. Never a value. */
export interface VaultEvents {
  "vault.secret.created": { id: string; name: string; category: string | null; createdBy: string };
  "vault.secret.updated": { id: string; name: string; category: string | null; createdBy: string };
  "vault.secret.deleted": { id: string; name: string };
  "vault.secret.revealed": { name: string; by: string };
  "vault.secret.injected": { name: string; envVar: string };
}

declare module "@muster/plugin" {
  interface MusterEvents extends VaultEvents {}
}
