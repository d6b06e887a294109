import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-crons",
    up: [
      `CREATE TABLE crons_jobs (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        cron TEXT NOT NULL,
        agentId TEXT NOT NULL,
        message TEXT NOT NULL,
        model TEXT,
        timezone TEXT NOT NULL,
        enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
        lastRun TEXT,
        lastStatus TEXT CHECK (lastStatus IN ('ok', 'error', 'skipped')),
        lastError TEXT,
        lastFireAt TEXT,
        nextFireAt TEXT,
        createdAt TEXT NOT NULL,
        updatedAt TEXT NOT NULL
      )`,
      `CREATE TABLE crons_runs (
        id TEXT PRIMARY KEY,
        jobId TEXT NOT NULL,
        trigger TEXT NOT NULL CHECK (trigger IN ('schedule', 'manual')),
        fireAt TEXT,
        startedAt TEXT NOT NULL,
        finishedAt TEXT,
        status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'error', 'skipped', 'interrupted')),
        output TEXT,
        error TEXT
      )`,
      "CREATE INDEX crons_runs_job ON crons_runs (jobId, startedAt)",
      "CREATE INDEX crons_runs_status ON crons_runs (status)",
    ],
  }),
  defineMigration({
    // Team mode: the instance running a run, so another instance's start-up (or its sweep
    // for dead instances) interrupts only runs no live instance owns.
    name: "002-run-owner",
    up: ["ALTER TABLE crons_runs ADD COLUMN owner TEXT"],
  }),
];
