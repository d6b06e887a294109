import type { PluginCommand } from "@muster/plugin";

/** `muster vault rotate`; the implementation is imported only when the command runs. */
export const vaultCommand: PluginCommand = {
  name: "vault",
  usage: "vault rotate",
  summary: "re-encrypt every vault secret under NEW_VAULT_KEY (server stopped)",
  async run(args, io) {
    const { runVaultCommand } = await import("./vault-command.ts");
    return runVaultCommand(args, { ...io, vaultKey: io.credential("vaultKey"), gatewayToken: io.credential("gatewayToken") });
  },
};
