import { defineHook } from "@muster/plugin";
import { VAULT_KEYRING, VAULT_STORE } from "../tokens.ts";

/**
 * Derives the key once at start-up (a failure leaves the vault locked, Muster running); on
 * PostgreSQL then loads the synchronous members' view of the secrets (secret-view.ts), and a
 * failure there too leaves the vault unavailable rather than redacting with no values.
 */
export const startVault = defineHook({
  deps: { keyring: VAULT_KEYRING, store: VAULT_STORE },
  run: async ({ keyring, store }) => {
    await keyring.unlock();
    await store.startView().catch((error: unknown) => keyring.unavailable(error));
  },
});

/** Forgets the key at shutdown (redaction then knows no value, as while locked), then stops the view's reloads. */
export const stopVault = defineHook({
  deps: { keyring: VAULT_KEYRING, store: VAULT_STORE },
  run: async ({ keyring, store }) => {
    keyring.close();
    await store.stopView();
  },
});
