import { randomUUID } from "node:crypto";
import type { Crew } from "../../agents/tokens.ts";
import type { CronJobRow } from "../entities/cron-job.ts";
import type { CronRunRow } from "../entities/cron-run.ts";
import { cronErrors } from "../errors.ts";
import type { CronEdit, CronJobRecord, CronJobs, CronRunRecord, NewCronJob } from "../tokens.ts";
import { CronSyntaxError, parseCron } from "./cron-expression.ts";
import type { CronRunner } from "./cron-runner.ts";
import type { CronScheduler } from "./cron-scheduler.ts";
import type { CronStore } from "./cron-store.ts";
import { isKnownTimeZone } from "./next-fire.ts";

export interface CronServiceDeps {
  store: CronStore;
  scheduler: CronScheduler;
  runner: CronRunner;
  /** Known agents (the agents plugin's crew capability); without it any agent id is accepted. */
  crew?: Crew;
  maxJobs: number;
  now: () => number;
}

function validSchedule(cron: string, timezone: string): void {
  try {
    parseCron(cron);
  } catch (error) {
    if (error instanceof CronSyntaxError) throw cronErrors.CRON_INVALID_EXPRESSION({ cron, reason: error.message });
    throw error;
  }
  if (!isKnownTimeZone(timezone)) throw cronErrors.CRON_UNKNOWN_TIME_ZONE({ timezone });
}

const toRun = (row: CronRunRow): CronRunRecord => ({ ...row });

export class CronService implements CronJobs {
  private readonly deps: CronServiceDeps;
  constructor(deps: CronServiceDeps) {
    this.deps = deps;
  }

  private record(row: CronJobRow): CronJobRecord {
    const { lastFireAt: _claimed, nextFireAt, ...fields } = row;
    return { ...fields, enabled: Boolean(row.enabled), nextRun: row.enabled ? nextFireAt : null };
  }

  private async row(id: string): Promise<CronJobRow> {
    const row = await this.deps.store.getJob(id);
    if (!row) throw cronErrors.CRON_NOT_FOUND({ id });
    return row;
  }

  /** Re-reads the row after arming, so nextRun is the stored next fire time. */
  private async armed(id: string): Promise<CronJobRecord> {
    await this.deps.scheduler.arm(await this.row(id));
    return this.record(await this.row(id));
  }

  async list(): Promise<CronJobRecord[]> {
    return (await this.deps.store.listJobs()).map((row) => this.record(row));
  }

  async get(id: string): Promise<CronJobRecord> {
    return this.record(await this.row(id));
  }

  async create(input: NewCronJob): Promise<CronJobRecord> {
    const timezone = input.timezone ?? "UTC";
    validSchedule(input.cron, timezone);
    if (this.deps.crew && !(await this.deps.crew.isKnown(input.agentId))) throw cronErrors.CRON_AGENT_NOT_FOUND({ agentId: input.agentId });
    if ((await this.deps.store.countJobs()) >= this.deps.maxJobs) throw cronErrors.CRON_JOB_LIMIT({ limit: this.deps.maxJobs });
    const now = new Date(this.deps.now()).toISOString();
    const row: CronJobRow = {
      id: randomUUID(),
      name: input.name,
      cron: input.cron.trim().replace(/\s+/g, " "),
      agentId: input.agentId,
      message: input.message,
      model: input.model ?? null,
      timezone,
      enabled: true,
      lastRun: null,
      lastStatus: null,
      lastError: null,
      // A new job's first fire time is after its creation: nothing earlier is "missed".
      lastFireAt: now,
      nextFireAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.deps.store.insertJob(row);
    return this.armed(row.id);
  }

  async edit(id: string, edit: CronEdit): Promise<CronJobRecord> {
    if (edit.name === undefined && edit.cron === undefined && edit.message === undefined) throw cronErrors.CRON_EDIT_EMPTY();
    const row = await this.row(id);
    if (edit.cron !== undefined) validSchedule(edit.cron, row.timezone);
    const fields: Partial<CronJobRow> = { updatedAt: new Date(this.deps.now()).toISOString() };
    if (edit.name !== undefined) fields.name = edit.name;
    if (edit.message !== undefined) fields.message = edit.message;
    if (edit.cron !== undefined) fields.cron = edit.cron.trim().replace(/\s+/g, " ");
    if (!(await this.deps.store.updateJob(id, fields))) throw cronErrors.CRON_NOT_FOUND({ id });
    return this.armed(id);
  }

  async setEnabled(id: string, enabled: boolean): Promise<CronJobRecord> {
    await this.row(id);
    const now = new Date(this.deps.now()).toISOString();
    // Re-enabling never runs fire times that passed while the job was disabled.
    const fields: Partial<CronJobRow> = enabled ? { enabled, updatedAt: now, lastFireAt: now } : { enabled, updatedAt: now };
    await this.deps.store.updateJob(id, fields);
    return this.armed(id);
  }

  async runNow(id: string): Promise<{ job: CronJobRecord; run: CronRunRecord }> {
    // A manual run never races a claim, so start always answers.
    const started = (await this.deps.runner.start(await this.row(id), null))!;
    // Over budget: the skipped run is recorded, and the caller gets the 409 BUDGET_EXCEEDED.
    if (started.refusal) throw started.refusal;
    return { job: await this.get(id), run: started.run };
  }

  async remove(id: string): Promise<void> {
    this.deps.scheduler.disarm(id);
    if (!(await this.deps.store.deleteJob(id))) throw cronErrors.CRON_NOT_FOUND({ id });
  }

  async runs(query: { jobId?: string; limit: number }): Promise<CronRunRecord[]> {
    if (query.jobId) await this.row(query.jobId);
    return (await this.deps.store.runs(query)).map(toRun);
  }
}
