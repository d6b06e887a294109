import type { Database } from "@muster/plugin";
import { CronJob, type CronJobRow } from "../entities/cron-job.ts";
import { CronRun, type CronRunRow } from "../entities/cron-run.ts";
import type { CronRunRecord } from "../tokens.ts";

type Statement = ReturnType<Database["sql"]["prepare"]>;

/**
 * `crons_jobs` and `crons_runs`. Claiming a fire time and recording its run are ONE
 * synchronous transaction: the claim only moves `lastFireAt` forward, so two timers, two
 * processes or a restart can never run one fire time twice, and a crash cannot leave a
 * claimed fire time without its run record.
 */
export class CronStore {
  private readonly db: () => Database;
  private statements?: Record<"claim" | "insertRun" | "finishRun" | "jobResult", Statement>;
  private startTx?: (run: CronRunRecord) => boolean;
  constructor(db: () => Database) {
    this.db = db;
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

  private jobs() {
    return this.db().em().createQueryBuilder(CronJob);
  }

  private runsQb() {
    return this.db().em().createQueryBuilder(CronRun);
  }

  async listJobs(): Promise<CronJobRow[]> {
    return this.jobs().select("*").orderBy({ createdAt: "asc", id: "asc" }).execute("all", false);
  }

  async getJob(id: string): Promise<CronJobRow | undefined> {
    return (await this.jobs().select("*").where({ id }).execute<CronJobRow | null>("get")) ?? undefined;
  }

  async countJobs(): Promise<number> {
    const row = await this.jobs().count().execute<{ count: number }>("get");
    return row.count;
  }

  async insertJob(row: CronJobRow): Promise<void> {
    await this.jobs().insert({ ...row }).execute();
  }

  async updateJob(id: string, fields: Partial<CronJobRow>): Promise<boolean> {
    const result = await this.jobs().update(fields).where({ id }).execute<{ affectedRows: number }>("run");
    return result.affectedRows > 0;
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

  async runs(query: { jobId?: string; limit: number }): Promise<CronRunRow[]> {
    const qb = this.runsQb().select("*");
    if (query.jobId) qb.where({ jobId: query.jobId });
    return qb.orderBy({ startedAt: "desc", id: "desc" }).limit(query.limit).execute("all", false);
  }
}
