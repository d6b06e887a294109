import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-publishing",
    up: [
      `CREATE TABLE publishing_drafts (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        text TEXT NOT NULL,
        platforms TEXT NOT NULL,
        media TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('draft', 'review', 'approved', 'scheduled', 'publishing', 'published', 'failed', 'rejected')),
        scheduledAt TEXT,
        results TEXT NOT NULL,
        approvalId TEXT,
        createdAt TEXT NOT NULL,
        updatedAt TEXT NOT NULL
      )`,
      "CREATE INDEX publishing_drafts_updated ON publishing_drafts (updatedAt)",
      `CREATE TABLE publishing_outbox (
        id TEXT PRIMARY KEY,
        approvalId TEXT NOT NULL,
        draftId TEXT,
        platform TEXT NOT NULL,
        title TEXT NOT NULL,
        text TEXT NOT NULL,
        media TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('approved', 'publishing', 'published', 'failed', 'unknown')),
        dueAt TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        postId TEXT,
        postUrl TEXT,
        error TEXT,
        decidedBy TEXT NOT NULL,
        createdAt TEXT NOT NULL,
        updatedAt TEXT NOT NULL
      )`,
      "CREATE UNIQUE INDEX publishing_outbox_approval_platform ON publishing_outbox (approvalId, platform)",
      "CREATE INDEX publishing_outbox_due ON publishing_outbox (status, dueAt)",
    ],
  }),
  defineMigration({
    // Team mode: the instance sending an entry, so another instance's start-up (or its sweep
    // for dead instances) settles as `unknown` only sends no live instance is making.
    name: "002-outbox-owner",
    up: ["ALTER TABLE publishing_outbox ADD COLUMN owner TEXT"],
  }),
];
