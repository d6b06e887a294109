import { defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { ACTIVITIES } from "../../activities/tokens.ts";
import { VAULT_ENVIRONMENT, VAULT_KEYRING, VAULT_SECRETS, VAULT_STORE } from "../tokens.ts";
import { ChildEnvironment } from "./child-environment.ts";
import { configuredPassphrase, VaultKeyring } from "./keyring.ts";
import { SecretStore } from "./secret-store.ts";
import { VaultSecrets } from "./vault-secrets.ts";

/**
 * Provides the keyring (key derived at start), the secret store, the child environment,
 * `vault.secrets`, and the host's redaction backend (so plugins the vault cannot be a
 * dependency of, like activities, redact stored free text through `hostTokens.redaction`).
 */
export function registerVaultServices(ctx: PluginContext): void {
  ctx.provide(
    defineService({
      token: VAULT_KEYRING,
      deps: { db: hostTokens.db, logger: hostTokens.logger, host: hostTokens.info },
      create: ({ db, logger, host }) => new VaultKeyring({ db: () => db, logger, passphrase: () => configuredPassphrase(host) }),
    }),
  );
  ctx.provide(defineService({ token: VAULT_ENVIRONMENT, deps: {}, create: () => new ChildEnvironment() }));
  ctx.provide(
    defineService({
      token: VAULT_STORE,
      deps: { keyring: VAULT_KEYRING, environment: VAULT_ENVIRONMENT, activities: ACTIVITIES, db: hostTokens.db, events: hostTokens.events, logger: hostTokens.logger, instances: hostTokens.instances },
      create: ({ db, ...deps }) => new SecretStore({ db: () => db, ...deps }),
    }),
  );
  ctx.provide(
    defineService({
      token: VAULT_SECRETS,
      deps: { store: VAULT_STORE, environment: VAULT_ENVIRONMENT, keyring: VAULT_KEYRING },
      create: (deps) => new VaultSecrets(deps),
    }),
  );
  ctx.provide(defineService({ token: hostTokens.redactionBackend, deps: { secrets: VAULT_SECRETS }, create: ({ secrets }) => ({ redact: (text: string) => secrets.redact(text) }) }));
}
