import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-feedback-entries",
    up: [
      `CREATE TABLE feedback_entries (
        id TEXT PRIMARY KEY,
        agentId TEXT NOT NULL,
        taskId TEXT,
        type TEXT NOT NULL CHECK (type IN ('correction', 'praise', 'pattern', 'rule')),
        content TEXT NOT NULL,
        context TEXT,
        createdAt TEXT NOT NULL,
        appliedTo TEXT NOT NULL
      )`,
      "CREATE INDEX feedback_by_time ON feedback_entries (createdAt DESC)",
      "CREATE INDEX feedback_by_agent ON feedback_entries (agentId, createdAt DESC)",
    ],
  }),
];
