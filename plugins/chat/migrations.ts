import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-chat",
    up: [
      `CREATE TABLE chat_sessions (
        id TEXT PRIMARY KEY,
        mode TEXT NOT NULL CHECK (mode IN ('single', 'party')),
        agentIds TEXT NOT NULL,
        title TEXT NOT NULL,
        createdAt TEXT NOT NULL,
        updatedAt TEXT NOT NULL
      )`,
      "CREATE INDEX chat_sessions_by_update ON chat_sessions (updatedAt DESC)",
      `CREATE TABLE chat_messages (
        id TEXT PRIMARY KEY,
        sessionId TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'agent')),
        agentId TEXT,
        round INTEGER,
        text TEXT NOT NULL,
        thinking TEXT,
        toolCalls TEXT NOT NULL,
        artifacts TEXT NOT NULL,
        runId TEXT,
        inputTokens INTEGER NOT NULL,
        outputTokens INTEGER NOT NULL,
        createdAt TEXT NOT NULL
      )`,
      "CREATE INDEX chat_messages_by_session ON chat_messages (sessionId, createdAt)",
    ],
  }),
  defineMigration({
    name: "002-turns",
    // Team mode's running turns, for every instance's list and abort (entities/chat-turn.ts says why).
    up: [
      `CREATE TABLE chat_turns (
        id TEXT PRIMARY KEY,
        sessionId TEXT NOT NULL,
        owner TEXT NOT NULL,
        startedAt TEXT NOT NULL,
        record TEXT NOT NULL,
        abortRequestedAt TEXT,
        finished TEXT,
        finishedAt TEXT
      )`,
      "CREATE INDEX chat_turns_by_owner ON chat_turns (owner)",
    ],
  }),
];
