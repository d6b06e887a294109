import { token } from "@muster/plugin";

/** A cron job as the API shows it: the spec's fields plus DESIGN §14.4's. */
export interface CronJobRecord {
  id: string;
  name: string;
  cron: string;
  agentId: string;
  message: string;
  model: string | null;
  timezone: string;
  enabled: boolean;
  lastRun: string | null;
  nextRun: string | null;
  lastStatus: "ok" | "error" | "skipped" | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export type CronRunStatus = "running" | "ok" | "error" | "skipped" | "interrupted";

export interface CronRunRecord {
  id: string;
  jobId: string;
  trigger: "schedule" | "manual";
  fireAt: string | null;
  startedAt: string;
  finishedAt: string | null;
  status: CronRunStatus;
  output: string | null;
  error: string | null;
}

export interface NewCronJob {
  name: string;
  agentId: string;
  cron: string;
  message: string;
  model?: string | null;
  timezone?: string;
}

export interface CronEdit {
  name?: string;
  cron?: string;
  message?: string;
}

/** Muster's own cron jobs (`/api/crons`). */
export interface CronJobs {
  list(): Promise<CronJobRecord[]>;
  get(id: string): Promise<CronJobRecord>;
  create(input: NewCronJob): Promise<CronJobRecord>;
  edit(id: string, edit: CronEdit): Promise<CronJobRecord>;
  setEnabled(id: string, enabled: boolean): Promise<CronJobRecord>;
  /** Starts a run now; resolves with the run as recorded when it started (or skipped). */
  runNow(id: string): Promise<{ job: CronJobRecord; run: CronRunRecord }>;
  remove(id: string): Promise<void>;
  runs(query: { jobId?: string; limit: number }): Promise<CronRunRecord[]>;
}

export const CRONS = token<CronJobs>("crons.jobs");
