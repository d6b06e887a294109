// The `muster vault` command line: argument parsing, reading the new passphrase, output.
import { join } from "node:path";
import type { PassphraseSource } from "../services/keyring.ts";
import { MusterError, type CommandIo } from "@muster/plugin";
import { VaultMetaEntry } from "../entities/vault-meta.ts";
import { VaultSecret } from "../entities/vault-secret.ts";
import { vaultCommandErrors } from "../errors.ts";
import { rotateVault } from "./rotate.ts";

export interface VaultCommandIo {
  home: string;
  vaultKey: string | null;
  gatewayToken: string | null;
  env: NodeJS.ProcessEnv;
  /** DATABASE_URL's PostgreSQL database (null on the SQLite default): CommandIo.openPostgres. */
  openPostgres: CommandIo["openPostgres"];
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export const VAULT_USAGE = `Usage: muster vault rotate

Re-encrypts every vault secret under a new passphrase, in one transaction.
  current passphrase: VAULT_KEY (else GATEWAY_TOKEN), as for the server
  new passphrase:     NEW_VAULT_KEY, else read from stdin (prompted, hidden, on a terminal)
The database is MUSTER_HOME's, or DATABASE_URL's (PostgreSQL) when it is set.
Stop the server first; afterwards start it with VAULT_KEY set to the new passphrase.`;

/** Runs `muster vault <args>`; returns the exit code. */
export async function runVaultCommand(args: string[], io: VaultCommandIo): Promise<number> {
  if (args[0] !== "rotate" || args.length > 1) {
    io.stderr.write(`${VAULT_USAGE}\n`);
    return 2;
  }
  const current = io.vaultKey
    ? { value: io.vaultKey, source: "VAULT_KEY" as PassphraseSource }
    : io.gatewayToken
      ? { value: io.gatewayToken, source: "GATEWAY_TOKEN" as PassphraseSource }
      : null;
  try {
    const next = io.env.NEW_VAULT_KEY ?? (await readNewPassphrase(io.stdin, io.stderr));
    const postgres = await io.openPostgres([VaultSecret, VaultMetaEntry]);
    let rotated: number;
    try {
      ({ rotated } = await rotateVault({ dbPath: join(io.home, "muster.db"), postgres, current, next }));
    } finally {
      await postgres?.close();
    }
    io.stdout.write(`Re-encrypted ${rotated} secret(s) under the new passphrase. Start Muster with VAULT_KEY set to the new passphrase.\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof MusterError)) throw error;
    io.stderr.write(`muster vault rotate: ${error.code}: ${error.message}\n`);
    return 1;
  }
}

/** On a terminal: asks twice without echo. Otherwise: the first line of stdin. */
async function readNewPassphrase(stdin: NodeJS.ReadStream, out: NodeJS.WritableStream): Promise<string> {
  if (!stdin.isTTY) {
    let text = "";
    for await (const chunk of stdin) text += String(chunk);
    return text.split(/\r?\n/)[0] ?? "";
  }
  const first = await promptHidden("New vault passphrase: ", stdin, out);
  const second = await promptHidden("Repeat it: ", stdin, out);
  if (first !== second) throw vaultCommandErrors.VAULT_NEW_KEY_MISMATCH();
  return first;
}

function promptHidden(question: string, stdin: NodeJS.ReadStream, out: NodeJS.WritableStream): Promise<string> {
  out.write(question);
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (error?: MusterError) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      out.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return finish();
        if (ch === "\u0003" || ch === "\u0004") return finish(vaultCommandErrors.VAULT_ROTATION_CANCELLED());
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on("data", onData);
  });
}
