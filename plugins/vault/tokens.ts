import { token } from "@muster/plugin";
import type { ChildEnvironment } from "./services/child-environment.ts";
import type { VaultKeyring } from "./services/keyring.ts";
import type { SecretStore } from "./services/secret-store.ts";
import type { VaultSecrets } from "./services/vault-secrets.ts";

/** Read a secret by name and redact secret values from text. Depend on `vault` to use it. */
export const VAULT_SECRETS = token<VaultSecrets>("vault.secrets");
/** The environment for child processes Muster starts: `childEnv(base?)`. */
export const VAULT_ENVIRONMENT = token<ChildEnvironment>("vault.environment");
/** Internal to the vault plugin. */
export const VAULT_KEYRING = token<VaultKeyring>("vault.keyring");
/** Internal to the vault plugin. */
export const VAULT_STORE = token<SecretStore>("vault.store");
