import { contribute, definePlugin, hostPoints } from "@muster/plugin";
import { fileURLToPath } from "node:url";
import { CONSOLE_PAGES, CONSOLE_PANELS } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { vaultCommand } from "./cli/command.ts";
import { vaultKeyCheck } from "./doctor/vault-key-check.ts";
import { VaultInjection } from "./entities/vault-injection.ts";
import { VaultMetaEntry } from "./entities/vault-meta.ts";
import { VaultSecret } from "./entities/vault-secret.ts";
import { vaultRoutes } from "./http/routes.ts";
import { migrations } from "./migrations.ts";
import { registerVaultServices } from "./services/register.ts";
import { startVault, stopVault } from "./services/lifecycle.ts";

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
  optionalDependsOn: ["stream", "dashboard"],
  paths: ["/api/vault"],
  entities: [VaultSecret, VaultMetaEntry, VaultInjection],
  migrations,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "vault.secret.*", description: "A secret was stored, updated or deleted (names only, never values)" }),
    contribute(CONSOLE_PANELS, { id: "names", title: "Vault", module: fileURLToPath(new URL("./console/names-panel.js", import.meta.url)), events: ["vault.secret.*"] }),
    contribute(CONSOLE_PAGES, { id: "vault", title: "Vault", group: "settings", order: 30, module: fileURLToPath(new URL("./console/vault-page.ts", import.meta.url)), events: ["vault.secret.*"] }),
    // `muster doctor`: whether VAULT_KEY is set and is the vault's passphrase.
    contribute(hostPoints.doctorChecks, vaultKeyCheck),
  ],
  register: registerVaultServices,
  routes: vaultRoutes,
  onStart: startVault,
  onStop: stopVault,
  commands: [vaultCommand],
});

export default vaultPlugin;
