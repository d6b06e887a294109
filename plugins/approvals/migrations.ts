import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-approvals",
    up: [
      `CREATE TABLE approvals_approvals (
        id TEXT PRIMARY KEY,
        taskId TEXT NOT NULL,
        title TEXT NOT NULL,
        requestedBy TEXT NOT NULL,
        approver TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
        command TEXT,
        context TEXT,
        description TEXT,
        gated INTEGER NOT NULL DEFAULT 0 CHECK (gated IN (0, 1)),
        payload TEXT,
        payloadHash TEXT,
        reason TEXT,
        decidedBy TEXT,
        createdAt TEXT NOT NULL,
        resolvedAt TEXT,
        expiresAt TEXT,
        executionStatus TEXT NOT NULL DEFAULT 'none' CHECK (executionStatus IN ('none', 'running', 'succeeded', 'failed')),
        executionResult TEXT,
        executionError TEXT,
        executedAt TEXT
      )`,
      "CREATE INDEX approvals_pending ON approvals_approvals (status, createdAt DESC)",
      "CREATE INDEX approvals_history ON approvals_approvals (status, resolvedAt DESC)",
    ],
  }),
  defineMigration({
    name: "002-requester-key",
    up: [
      // The requester's comparison key (services/person.ts), for the per-requester pending cap.
      // Rows from before this migration get an ASCII approximation; new rows get the exact key.
      "ALTER TABLE approvals_approvals ADD COLUMN requesterKey TEXT",
      "UPDATE approvals_approvals SET requesterKey = lower(replace(requestedBy, ' ', ''))",
      "CREATE INDEX approvals_requester_pending ON approvals_approvals (requesterKey, status)",
    ],
  }),
  defineMigration({
    // Team mode: the instance running an approved action, so another instance's start-up (or
    // its sweep for dead instances) fails only executions no live instance is running.
    name: "003-execution-owner",
    up: ["ALTER TABLE approvals_approvals ADD COLUMN executionOwner TEXT"],
  }),
];
