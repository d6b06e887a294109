import { defineMigration } from "@muster/plugin";

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
    up: [
      `CREATE TABLE agents_escalations (
        agentId TEXT PRIMARY KEY,
        lastActivityMs INTEGER NOT NULL,
        escalatedAt TEXT NOT NULL
      )`,
    ],
  }),
];
