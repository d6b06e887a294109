// Shared pieces of the vault suites: a probe plugin that reaches the vault's services and
// records every bus event, a logger that writes into a buffer, and raw row access.
import { Writable } from "node:stream";
import { join } from "node:path";
import pino, { type Logger } from "pino";
import Database from "better-sqlite3";
import { defineHook, definePlugin, hostTokens, type MusterEvent } from "@muster/plugin";
import { VAULT_ENVIRONMENT, VAULT_SECRETS, type ChildProcessEnvironment, type VaultSecretReader } from "../../../plugins/vault/tokens.ts";
import type { SecretMetadata } from "../../../plugins/vault/services/secret-store.ts";
import type { Sealed } from "../../../plugins/vault/crypto/cipher.ts";
import { startTestHost, type StartOptions, type TestHost } from "../../helpers/start-test-host.ts";

export const KEY = "correct horse battery staple";

/** A plugin that depends on the vault and exposes its two services and every published event. */
export function createProbe() {
  const probe = {
    secrets: undefined as VaultSecretReader | undefined,
    environment: undefined as ChildProcessEnvironment | undefined,
    events: [] as MusterEvent[],
    plugin: definePlugin({
      id: "vault-probe",
      version: "1.0.0",
      host: "^1.0.0",
      dependsOn: ["vault"],
      onStart: defineHook({
        deps: { secrets: VAULT_SECRETS, environment: VAULT_ENVIRONMENT, events: hostTokens.events },
        run({ secrets, environment, events }) {
          Object.assign(probe, { secrets, environment });
          events.subscribe("*", (event) => void probe.events.push(event));
        },
      }),
    }),
  };
  return probe;
}

/** A pino logger writing JSON lines into `lines` (as the real logger would to stdout). */
export function captureLogger(): { logger: Logger; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level: "debug" }, stream), text: () => chunks.join("") };
}

export interface VaultHostOptions extends StartOptions {
  vaultKey?: string | null;
  gatewayToken?: string | null;
}

/** Starts a test host with the vault passphrase given as configuration. */
export function startVaultHost(options: VaultHostOptions = {}): Promise<TestHost> {
  const { vaultKey = KEY, gatewayToken = null, ...rest } = options;
  return startTestHost({ ...rest, config: { vaultKey, gatewayToken, ...rest.config } });
}

/** Opens the host's database file directly (as an attacker or a broken disk would). */
export function openRaw(home: string): Database.Database {
  const db = new Database(join(home, "muster.db"));
  db.pragma("busy_timeout = 5000");
  return db;
}

/** A stored row as SQLite holds it: the API metadata plus the sealed value. */
export type RawSecret = SecretMetadata & Sealed;

export function rawRows(home: string): RawSecret[] {
  const db = openRaw(home);
  try {
    return db.prepare("SELECT * FROM vault_secrets ORDER BY name").all() as RawSecret[];
  } finally {
    db.close();
  }
}

/** Flips one bit of a hex string at the given byte. */
export function flipHex(hex: string, byte = 0): string {
  const buf = Buffer.from(hex, "hex");
  buf[byte] = buf[byte]! ^ 0x01;
  return buf.toString("hex");
}

/** POSTs `body` to `path`; the answer is typed from the literal path (the route's OpenAPI answer). */
export const post = <const P extends string>(h: TestHost, path: P, body: unknown, init: { session?: boolean; headers?: Record<string, string> } = {}) =>
  h.json(path, { method: "POST", body, ...init });
