import { defineHook } from "@muster/plugin";
import { VAULT_KEYRING } from "../tokens.ts";

/** Derives the key once at start-up (a failure leaves the vault locked, Muster running). */
export const startVault = defineHook({
  deps: { keyring: VAULT_KEYRING },
  run: ({ keyring }) => keyring.unlock(),
});

/** Forgets the key at shutdown. */
export const stopVault = defineHook({
  deps: { keyring: VAULT_KEYRING },
  run: ({ keyring }) => keyring.close(),
});
