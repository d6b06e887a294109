import { atomically, defineStore, type Database, type EntityStore } from "@muster/plugin";
import { CronJob, type CronJobRow } from "../entities/cron-job.ts";
import { CronRun, type CronRunRow } from "../entities/cron-run.ts";
import type { CronRunRecord } from "../tokens.ts";

/** Oldest first. */
const jobs = defineStore(CronJob, { orderBy: { createdAt: "asc", id: "asc" } });
/** Newest first; text and number columns only, so rows need no mapping. */
const runs = defineStore(CronRun, { orderBy: { startedAt: "desc", id: "desc" }, mapRows: false });

// The statements of the atomic steps, in SQL both engines read (quoted camelCase names, `?`).
const CLAIM = `UPDATE crons_jobs SET "lastFireAt" = ? WHERE id = ? AND enabled = ? AND ("lastFireAt" IS NULL OR "lastFireAt" < ?)`;
const INSERT_RUN = `INSERT INTO crons_runs (id, "jobId", "trigger", "fireAt", "startedAt", "finishedAt", status, output, error, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const FINISH_RUN = `UPDATE crons_runs SET status = ?, "finishedAt" = ?, output = ?, error = ? WHERE id = ? AND status = 'running'`;
const JOB_RESULT = `UPDATE crons_jobs SET "lastRun" = ?, "lastStatus" = ?, "lastError" = ? WHERE id = ?`;

/**
 * `crons_jobs` and `crons_runs` over the store kit, on SQLite and PostgreSQL. Claiming a fire
 * time and recording its run are ONE atomic step (`atomically`): the claim is a conditional
 * update that only moves `lastFireAt` forward, so of two timers, two processes or a restart
 * exactly one claims a fire time (PostgreSQL re-checks the condition on the row it waited
 * for), and a crash cannot leave a claimed fire time without its run record. The other
 * multi-statement changes (a run's end, a delete, the start-up sweep) are atomic steps for
 * the same reason: nothing half-written. On SQLite the steps run synchronously, over
 * statements prepared once, as before.
 */
export class CronStore {
  private readonly db: () => Database;
  private readonly jobRows: EntityStore<typeof CronJob>;
  private readonly runRows: EntityStore<typeof CronRun>;
  /** This instance's id, recorded on the runs it starts (team mode); null in a store without one. */
  private readonly owner: () => string | null;
  constructor(db: () => Database, owner: () => string | null = () => null) {
    this.db = db;
    this.owner = owner;
    this.jobRows = jobs.on(db);
    this.runRows = runs.on(db);
  }

  listJobs(): Promise<CronJobRow[]> {
    return this.jobRows.list();
  }

  /** What a timer is armed from, for every job: a light read for the team-mode sweep. */
  listSchedules(): Promise<Pick<CronJobRow, "id" | "cron" | "timezone" | "enabled">[]> {
    return this.jobRows.list({ fields: ["id", "cron", "timezone", "enabled"] });
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
  deleteJob(id: string): Promise<boolean> {
    return atomically(this.db(), function* (tx) {
      yield* tx.run(`DELETE FROM crons_runs WHERE "jobId" = ?`, [id]);
      return (yield* tx.run("DELETE FROM crons_jobs WHERE id = ?", [id])).changes === 1;
    });
  }

  /**
   * Records a run's start in one step: a scheduled run (`fireAt` set) first claims its fire
   * time (false when it was already claimed, or the job is gone or disabled), and a
   * `skipped` run is also the job's last result, so no kill can split these. A `running` run
   * becomes `skipped` (`ALREADY_RUNNING`, `r` changed in place) when the job has a run still
   * going, whichever instance of a team runs it.
   */
  startRun(r: CronRunRecord): Promise<boolean> {
    const owner = this.owner();
    return atomically(this.db(), function* (tx) {
      if (r.fireAt !== null && (yield* tx.run(CLAIM, [r.fireAt, r.jobId, true, r.fireAt])).changes !== 1) return false;
      if (r.status === "running") {
        // A run of this job still going on another instance of a team (this process's own are
        // refused before): this one is skipped, as on one process. The lock serialises the check.
        yield* tx.lock(`crons:run:${r.jobId}`);
        if (yield* tx.get(`SELECT id FROM crons_runs WHERE "jobId" = ? AND status = 'running'`, [r.jobId])) Object.assign(r, { status: "skipped", finishedAt: r.startedAt, error: "ALREADY_RUNNING" });
      }
      yield* tx.run(INSERT_RUN, [r.id, r.jobId, r.trigger, r.fireAt, r.startedAt, r.finishedAt, r.status, r.output, r.error, owner]);
      if (r.status === "skipped") yield* tx.run(JOB_RESULT, [r.startedAt, "skipped", r.error, r.jobId]);
      return true;
    });
  }

  /** Finishes a run still `running` and stores the job's last result. */
  async finishRun(run: CronRunRecord, job: { id: string; lastStatus: "ok" | "error" | "skipped"; lastError: string | null }): Promise<void> {
    await atomically(this.db(), function* (tx) {
      yield* tx.run(FINISH_RUN, [run.status, run.finishedAt, run.output, run.error, run.id]);
      yield* tx.run(JOB_RESULT, [run.startedAt, job.lastStatus, job.lastError, job.id]);
    });
  }

  /**
   * Runs a previous or dead process left `running` become `interrupted` (never re-run):
   * those no instance in `live` owns (`hostTokens.instances.liveIds()`; empty: every one).
   * Returns how many.
   */
  markInterrupted(now: string, reason: string, live: readonly string[] = []): Promise<number> {
    const orphaned = live.length ? `status = 'running' AND (owner IS NULL OR owner NOT IN (${live.map(() => "?").join(", ")}))` : "status = 'running'";
    return atomically(this.db(), function* (tx) {
      yield* tx.run(`UPDATE crons_jobs SET "lastStatus" = 'error', "lastError" = ? WHERE id IN (SELECT "jobId" FROM crons_runs WHERE ${orphaned})`, [reason, ...live]);
      return (yield* tx.run(`UPDATE crons_runs SET status = 'interrupted', "finishedAt" = ?, error = ? WHERE ${orphaned}`, [now, reason, ...live])).changes;
    });
  }

  runs(query: { jobId?: string; limit: number }): Promise<CronRunRow[]> {
    return this.runRows.list({ where: query.jobId ? { jobId: query.jobId } : undefined, limit: query.limit });
  }
}
