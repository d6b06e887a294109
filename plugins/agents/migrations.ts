import { defineMigration } from "@muster/plugin";

// This Muster's EIP-712 domain salt for pack licence proofs: random, made once, kept with the database,
// so a proof signed for one instance is refused by every other.
const licenceInstanceTable = (oneRow: string) => `CREATE TABLE agents_licence_instance (
        id INTEGER PRIMARY KEY${oneRow},
        salt TEXT NOT NULL
      )`;
// The last stuck episode escalated per agent, by its last activity in epoch milliseconds.
const escalationsTable = (millisType: string) => `CREATE TABLE agents_escalations (
        agentId TEXT PRIMARY KEY,
        lastActivityMs ${millisType} NOT NULL,
        escalatedAt TEXT NOT NULL
      )`;
// Challenges issued for licence proofs: single use (usedAt), bound to a pack, template and holder.
const licenceChallengesTable = `CREATE TABLE agents_licence_challenges (
        nonce TEXT PRIMARY KEY,
        pack TEXT NOT NULL,
        templateId TEXT NOT NULL,
        holder TEXT NOT NULL,
        expiresAt INTEGER NOT NULL,
        usedAt TEXT
      )`;

export const migrations = [
  defineMigration({
    name: "001-agents",
    up: [
      `CREATE TABLE agents_agents (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        role TEXT,
        tier INTEGER,
        squad TEXT,
        model TEXT,
        status TEXT NOT NULL DEFAULT 'idle',
        emoji TEXT,
        reportsTo TEXT,
        skills TEXT NOT NULL DEFAULT '[]',
        toolsAllow TEXT NOT NULL DEFAULT '[]',
        toolsDeny TEXT NOT NULL DEFAULT '[]',
        sandbox TEXT NOT NULL DEFAULT 'off' CHECK (sandbox IN ('off', 'container')),
        createdAt TEXT NOT NULL,
        updatedAt TEXT NOT NULL
      )`,
      `CREATE TABLE agents_pack_installs (
        name TEXT PRIMARY KEY,
        version TEXT NOT NULL,
        agents TEXT NOT NULL,
        installedAt TEXT NOT NULL
      )`,
    ],
  }),
  defineMigration({
    name: "002-escalations",
    up: [escalationsTable("INTEGER")],
    // Epoch milliseconds pass 32 bits: PostgreSQL's INTEGER would refuse them (SQLite's is 64 bits).
    postgresql: [escalationsTable("BIGINT")],
  }),
  defineMigration({
    name: "003-licence-challenges",
    up: [licenceInstanceTable(" CHECK (id = 1)"), `INSERT INTO agents_licence_instance (id, salt) VALUES (1, '0x' || lower(hex(randomblob(32))))`, licenceChallengesTable],
    // PostgreSQL has no randomblob(): 32 bytes from SHA-256 over two random UUIDs (gen_random_uuid(), built in since 13).
    // The one-row check is left out there: the entity cannot declare it (MikroORM's SQLite introspection does not
    // read a check on an INTEGER PRIMARY KEY), and only this migration writes the table.
    postgresql: [
      licenceInstanceTable(""),
      `INSERT INTO agents_licence_instance (id, salt) VALUES (1, '0x' || encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex'))`,
      licenceChallengesTable,
    ],
  }),
];
