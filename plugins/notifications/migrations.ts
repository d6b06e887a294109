import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-notifications",
    up: [
      `CREATE TABLE notifications_notifications (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        priority TEXT NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
        read INTEGER NOT NULL DEFAULT 0 CHECK (read IN (0, 1)),
        dismissed INTEGER NOT NULL DEFAULT 0 CHECK (dismissed IN (0, 1)),
        agentId TEXT,
        href TEXT,
        createdAt TEXT NOT NULL,
        readAt TEXT,
        dismissedAt TEXT
      )`,
      "CREATE INDEX notifications_visible ON notifications_notifications (dismissed, createdAt DESC)",
      "CREATE INDEX notifications_unread ON notifications_notifications (dismissed, read)",
    ],
  }),
];
