import { defineStore, type Database, type EntityStore } from "@muster/plugin";
import { CronJob, type CronJobRow } from "../entities/cron-job.ts";
import { CronRun, type CronRunRow } from "../entities/cron-run.ts";
import type { CronRunRecord } from "../tokens.ts";

type Statement = ReturnType<Database["sql"]["prepare"]>;

/** Oldest first. */
const jobs = defineStore(CronJob, { orderBy: { createdAt: "asc", id: "asc" } });
/** Newest first; text and number columns only, so rows need no mapping. */
const runs = defineStore(CronRun, { orderBy: { startedAt: "desc", id: "desc" }, mapRows: false });

/**
 * `crons_jobs` and `crons_runs`: plain reads and writes over the store kit. Claiming a fire
 * time and recording its run are ONE synchronous raw transaction: the claim only moves
 * `lastFireAt` forward, so two timers, two processes or a restart can never run one fire
 * time twice, and a crash cannot leave a claimed fire time without its run record. The
 * other multi-statement changes (a run's end, a delete, the start-up sweep) are synchronous
 * transactions for the same reason: nothing half-written.
 */
export class CronStore {
  private readonly db: () => Database;
  private readonly jobRows: EntityStore<typeof CronJob>;
  private readonly runRows: EntityStore<typeof CronRun>;
  private statements?: Record<"claim" | "insertRun" | "finishRun" | "jobResult", Statement>;
  private startTx?: (run: CronRunRecord) => boolean;
  constructor(db: () => Database) {
    this.db = db;
    this.jobRows = jobs.on(db);
    this.runRows = runs.on(db);
  }

  private prepared() {
    const sql = this.db().sql;
    this.statements ??= {
      claim: sql.prepare("UPDATE crons_jobs SET lastFireAt = @fireAt WHERE id = @jobId AND enabled = 1 AND (lastFireAt IS NULL OR lastFireAt < @fireAt)"),
      insertRun: sql.prepare(
        `INSERT INTO crons_runs (id, jobId, trigger, fireAt, startedAt, finishedAt, status, output, error)
         VALUES (@id, @jobId, @trigger, @fireAt, @startedAt, @finishedAt, @status, @output, @error)`,
      ),
      finishRun: sql.prepare("UPDATE crons_runs SET status = @status, finishedAt = @finishedAt, output = @output, error = @error WHERE id = @id AND status = 'running'"),
      jobResult: sql.prepare("UPDATE crons_jobs SET lastRun = @lastRun, lastStatus = @lastStatus, lastError = @lastError WHERE id = @id"),
    };
    return this.statements;
  }

  listJobs(): Promise<CronJobRow[]> {
    return this.jobRows.list();
  }

  async getJob(id: string): Promise<CronJobRow | undefined> {
    return (await this.jobRows.get(id)) ?? undefined;
  }

  countJobs(): Promise<number> {
    return this.jobRows.count();
  }

  insertJob(row: CronJobRow): Promise<void> {
    return this.jobRows.insert(row);
  }

  updateJob(id: string, fields: Partial<CronJobRow>): Promise<boolean> {
    return this.jobRows.update(id, fields);
  }

  /** Deletes a job and its run history in one step. */
  deleteJob(id: string): boolean {
    const sql = this.db().sql;
    return sql.transaction(() => {
      sql.prepare("DELETE FROM crons_runs WHERE jobId = ?").run(id);
      return sql.prepare("DELETE FROM crons_jobs WHERE id = ?").run(id).changes === 1;
    })();
  }

  /**
   * Records a run's start in one transaction: a scheduled run (`fireAt` set) first claims its
   * fire time (false when it was already claimed, or the job is gone or disabled), and a
   * `skipped` run is also the job's last result, so no kill can split these.
   */
  startRun(run: CronRunRecord): boolean {
    const s = this.prepared();
    this.startTx ??= this.db().sql.transaction((r: CronRunRecord) => {
      if (r.fireAt !== null && s.claim.run({ jobId: r.jobId, fireAt: r.fireAt }).changes !== 1) return false;
      s.insertRun.run(r);
      if (r.status === "skipped") s.jobResult.run({ id: r.jobId, lastRun: r.startedAt, lastStatus: "skipped", lastError: r.error });
      return true;
    });
    return this.startTx(run);
  }

  /** Finishes a run still `running` and stores the job's last result. */
  finishRun(run: CronRunRecord, job: { id: string; lastStatus: "ok" | "error" | "skipped"; lastError: string | null }): void {
    const s = this.prepared();
    this.db().sql.transaction(() => {
      s.finishRun.run({ id: run.id, status: run.status, finishedAt: run.finishedAt, output: run.output, error: run.error });
      s.jobResult.run({ id: job.id, lastRun: run.startedAt, lastStatus: job.lastStatus, lastError: job.lastError });
    })();
  }

  /** Runs a previous process left `running` become `interrupted` (never re-run); returns how many. */
  markInterrupted(now: string, reason: string): number {
    const sql = this.db().sql;
    return sql.transaction(() => {
      sql.prepare(
        `UPDATE crons_jobs SET lastStatus = 'error', lastError = @reason WHERE id IN (SELECT jobId FROM crons_runs WHERE status = 'running')`,
      ).run({ reason });
      return sql.prepare("UPDATE crons_runs SET status = 'interrupted', finishedAt = @now, error = @reason WHERE status = 'running'").run({ now, reason }).changes;
    })();
  }

  runs(query: { jobId?: string; limit: number }): Promise<CronRunRow[]> {
    return this.runRows.list({ where: query.jobId ? { jobId: query.jobId } : undefined, limit: query.limit });
  }
}
