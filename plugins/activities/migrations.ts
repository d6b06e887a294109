import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-activities",
    up: [
      `CREATE TABLE activities_activities (
        id TEXT PRIMARY KEY,
        agentId TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT,
        details TEXT,
        timestamp TEXT NOT NULL
      )`,
      "CREATE INDEX activities_by_time ON activities_activities (timestamp DESC, id DESC)",
      "CREATE INDEX activities_by_agent ON activities_activities (agentId, timestamp DESC)",
    ],
  }),
];
