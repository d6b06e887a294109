import { definePlugin, defineService } from "@muster/plugin";
import { ACTIVITIES } from "../activities/tokens.ts";
import { mountVaultRoutes } from "./http/routes.ts";
import { migrations } from "./migrations.ts";
import { ChildEnvironment } from "./services/child-environment.ts";
import { configuredPassphrase, VaultKeyring } from "./services/keyring.ts";
import { SecretStore } from "./services/secret-store.ts";
import { VaultSecrets } from "./services/vault-secrets.ts";
import { VAULT_ENVIRONMENT, VAULT_KEYRING, VAULT_SECRETS, VAULT_STORE } from "./tokens.ts";

/**
 * The encrypted secret vault (`/api/vault`): AES-256-GCM under a scrypt key derived once
 * at start-up from VAULT_KEY (else GATEWAY_TOKEN), the `vault.secrets` service and the
 * child-process environment (`vault.environment`). See docs/vault.md.
 */
export const vaultPlugin = definePlugin({
  id: "vault",
  version: "1.0.0",
  host: "^1.0.0",
  dependsOn: ["activities"],
  paths: ["/api/vault"],
  migrations,
  register(ctx) {
    ctx.provide(
      defineService({
        token: VAULT_KEYRING,
        deps: {},
        create: (_deps, c) => new VaultKeyring({ db: () => c.db, logger: c.logger, passphrase: () => configuredPassphrase(c.host) }),
      }),
    );
    ctx.provide(defineService({ token: VAULT_ENVIRONMENT, deps: {}, create: () => new ChildEnvironment() }));
    ctx.provide(
      defineService({
        token: VAULT_STORE,
        deps: { keyring: VAULT_KEYRING, environment: VAULT_ENVIRONMENT, activities: ACTIVITIES },
        create: (deps, c) => new SecretStore({ ...deps, db: () => c.db, events: c.events, logger: c.logger }),
      }),
    );
    ctx.provide(
      defineService({
        token: VAULT_SECRETS,
        deps: { store: VAULT_STORE, environment: VAULT_ENVIRONMENT, keyring: VAULT_KEYRING },
        create: (deps) => new VaultSecrets(deps),
      }),
    );
  },
  routes: mountVaultRoutes,
  async onStart(ctx) {
    await ctx.resolve(VAULT_KEYRING).unlock();
  },
  onStop(ctx) {
    ctx.resolve(VAULT_KEYRING).close();
  },
});

export default vaultPlugin;
