import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-vault",
    up: [
      // ciphertext, iv and tag are lower-case hex; the value itself is never stored.
      `CREATE TABLE vault_secrets (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        description TEXT,
        category TEXT NOT NULL DEFAULT 'api_key',
        createdBy TEXT NOT NULL,
        ciphertext TEXT NOT NULL,
        iv TEXT NOT NULL,
        tag TEXT NOT NULL,
        createdAt TEXT NOT NULL,
        updatedAt TEXT NOT NULL,
        lastAccessedAt TEXT
      )`,
      // Key material that is not secret: the scrypt salt and parameters, the key check
      // value, and the id of the current key (changes at every rotation).
      `CREATE TABLE vault_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      )`,
    ],
  }),
  defineMigration({
    name: "002-injections",
    // Team mode's injections, names only (entities/vault-injection.ts says why).
    up: [
      `CREATE TABLE vault_injections (
        envVar TEXT PRIMARY KEY,
        secret TEXT NOT NULL,
        instanceId TEXT NOT NULL,
        injectedAt TEXT NOT NULL
      )`,
    ],
  }),
];
