// Extra `muster` sub-commands contributed by features (for example `muster vault rotate`).
// Each entry is small: parse arguments, call the feature's own module, return an exit code.
import { loadConfig } from "./internal/config.ts";
import { runVaultCommand } from "../plugins/vault/cli/vault-command.ts";

export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  run(args: string[]): Promise<number>;
}

export const extraCommands: CliCommand[] = [
  {
    name: "vault",
    usage: "vault rotate",
    summary: "re-encrypt every vault secret under NEW_VAULT_KEY (server stopped)",
    run: (args) => {
      const config = loadConfig();
      return runVaultCommand(args, { home: config.home, vaultKey: config.vaultKey, gatewayToken: config.gatewayToken, env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
    },
  },
];
