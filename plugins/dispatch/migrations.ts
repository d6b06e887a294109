import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-dispatch",
    up: [
      `CREATE TABLE dispatch_dispatches (
        id TEXT PRIMARY KEY,
        taskId TEXT NOT NULL,
        agentId TEXT NOT NULL,
        status TEXT NOT NULL,
        previousStatus TEXT NOT NULL,
        sessionKey TEXT NOT NULL,
        output TEXT,
        error TEXT,
        inputTokens INTEGER,
        outputTokens INTEGER,
        createdAt TEXT NOT NULL,
        finishedAt TEXT
      )`,
      "CREATE INDEX dispatch_dispatches_by_task ON dispatch_dispatches (taskId, status)",
      "CREATE INDEX dispatch_dispatches_by_created ON dispatch_dispatches (createdAt)",
      `CREATE TABLE dispatch_task_reviews (
        id TEXT PRIMARY KEY,
        taskId TEXT NOT NULL,
        approvalId TEXT,
        status TEXT NOT NULL,
        createdAt TEXT NOT NULL,
        resolvedAt TEXT
      )`,
      "CREATE INDEX dispatch_task_reviews_by_task ON dispatch_task_reviews (taskId, status)",
      "CREATE INDEX dispatch_task_reviews_by_approval ON dispatch_task_reviews (approvalId)",
      `CREATE TABLE dispatch_blocked_episodes (
        taskId TEXT PRIMARY KEY,
        notifiedAt TEXT NOT NULL
      )`,
    ],
  }),
  defineMigration({
    name: "002-dispatch-task-settled",
    up: [
      "ALTER TABLE dispatch_dispatches ADD COLUMN taskSettledAt TEXT",
      // Dispatches that ended before this column existed had their task moved already.
      "UPDATE dispatch_dispatches SET taskSettledAt = finishedAt WHERE status <> 'running'",
      "CREATE INDEX dispatch_dispatches_by_settled ON dispatch_dispatches (taskSettledAt)",
    ],
  }),
  defineMigration({
    // Team mode: the instance running a dispatch, so another instance's start-up (or its sweep
    // for dead instances) interrupts only dispatches no live instance is running.
    name: "003-dispatch-owner",
    up: ["ALTER TABLE dispatch_dispatches ADD COLUMN owner TEXT"],
  }),
  defineMigration({
    // Team mode: the instance opening a review, so another instance's repair of reviews left
    // unlinked (at its start, or its sweep for dead instances) never takes one that a live
    // instance is still linking to its approval.
    name: "004-dispatch-review-owner",
    up: ["ALTER TABLE dispatch_task_reviews ADD COLUMN owner TEXT"],
  }),
];
