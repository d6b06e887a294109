import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-settings",
    up: [
      "CREATE TABLE settings_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL, updatedAt TEXT NOT NULL)",
      `CREATE TABLE settings_autopilot_goals (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT,
        priority TEXT NOT NULL CHECK (priority IN ('low', 'medium', 'high', 'critical')),
        status TEXT NOT NULL CHECK (status IN ('active', 'paused', 'done', 'archived')),
        createdAt TEXT NOT NULL,
        updatedAt TEXT NOT NULL
      )`,
      `CREATE TABLE settings_autopilot_runs (
        id TEXT PRIMARY KEY,
        goalId TEXT,
        agentId TEXT NOT NULL,
        taskTitle TEXT,
        taskDescription TEXT,
        status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed')),
        result TEXT,
        feedback TEXT CHECK (feedback IN ('good', 'bad')),
        feedbackNote TEXT,
        createdAt TEXT NOT NULL,
        updatedAt TEXT NOT NULL
      )`,
      "CREATE INDEX settings_autopilot_runs_created ON settings_autopilot_runs (createdAt)",
    ],
  }),
];
