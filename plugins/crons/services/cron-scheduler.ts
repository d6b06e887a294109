import type { Logger } from "@muster/plugin";
import type { CronJobRow } from "../entities/cron-job.ts";
import { parseCron } from "./cron-expression.ts";
import type { CronRunner } from "./cron-runner.ts";
import type { CronStore } from "./cron-store.ts";
import { nextFire } from "./next-fire.ts";

/** setTimeout's largest delay; longer waits re-arm. */
const MAX_DELAY_MS = 2_147_000_000;

/** What a timer was armed from: a job whose schedule, zone or state differs needs arming again. */
const armedFrom = (job: Pick<CronJobRow, "cron" | "timezone" | "enabled">) => `${Boolean(job.enabled)}\n${job.timezone}\n${job.cron}`;

/**
 * One timer per enabled job, armed for its next fire time in its time zone. When a timer
 * fires, the fire time is claimed in the database before anything runs (CronRunner.start),
 * so a fire time runs at most once whatever happens around it.
 */
export class CronScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Per job, what its current timer (or its absence, when disabled) was armed from. */
  private readonly armed = new Map<string, string>();
  private readonly deps: { store: CronStore; runner: CronRunner; logger: Logger; now: () => number };
  private stopped = false;
  constructor(deps: { store: CronStore; runner: CronRunner; logger: Logger; now: () => number }) {
    this.deps = deps;
  }

  /** The next fire time after now (or after `after`), or null (disabled, or never fires). */
  next(job: Pick<CronJobRow, "cron" | "timezone" | "enabled">, after = this.deps.now()): number | null {
    if (!job.enabled) return null;
    return nextFire(parseCron(job.cron), job.timezone, after);
  }

  /**
   * Start-up: arms every job. A fire time stored as next but passed while Muster was down,
   * and never claimed, runs once now (its claim keeps it from running twice).
   */
  async rebuild(jobs: CronJobRow[]): Promise<void> {
    const now = this.deps.now();
    for (const job of jobs) {
      const missed = job.enabled && job.nextFireAt && Date.parse(job.nextFireAt) <= now && (!job.lastFireAt || job.lastFireAt < job.nextFireAt);
      if (missed) void this.fire(job, job.nextFireAt!);
      else await this.arm(job);
    }
  }

  /** Arms (or disarms) the job's timer from its current row and stores the next fire time. */
  async arm(job: CronJobRow, firedAt = 0): Promise<number | null> {
    this.disarm(job.id);
    // After a fire, strictly after that fire time even if the timer woke a little early.
    const at = this.next(job, Math.max(this.deps.now(), firedAt));
    const nextFireAt = at === null ? null : new Date(at).toISOString();
    if (nextFireAt !== job.nextFireAt) await this.deps.store.updateJob(job.id, { nextFireAt });
    if (at !== null && !this.stopped) this.setTimer(job.id, at);
    this.armed.set(job.id, armedFrom(job));
    return at;
  }

  disarm(jobId: string): void {
    clearTimeout(this.timers.get(jobId));
    this.timers.delete(jobId);
    this.armed.delete(jobId);
  }

  /**
   * Team mode: timers follow the jobs as the database holds them. A job another instance
   * created, rescheduled, enabled or disabled is armed again here, a deleted one disarmed;
   * so every instance keeps a timer for every job, and when the instance a job was made on
   * dies, its next fire time still runs (the claim picks one instance per fire time).
   */
  async sync(schedules: Pick<CronJobRow, "id" | "cron" | "timezone" | "enabled">[]): Promise<void> {
    if (this.stopped) return;
    const present = new Set(schedules.map((job) => job.id));
    for (const id of [...this.armed.keys()]) if (!present.has(id)) this.disarm(id);
    for (const schedule of schedules) {
      if (this.armed.get(schedule.id) === armedFrom(schedule)) continue;
      const job = await this.deps.store.getJob(schedule.id);
      if (job && !this.stopped) await this.arm(job);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const id of [...this.timers.keys()]) this.disarm(id);
  }

  private setTimer(jobId: string, at: number): void {
    const delay = Math.max(0, at - this.deps.now());
    const timer = setTimeout(() => {
      this.timers.delete(jobId);
      if (delay > MAX_DELAY_MS) return void this.rearm(jobId);
      void this.onTimer(jobId, new Date(at).toISOString());
    }, Math.min(delay, MAX_DELAY_MS));
    timer.unref();
    this.timers.set(jobId, timer);
  }

  private async rearm(jobId: string): Promise<void> {
    const job = await this.deps.store.getJob(jobId);
    if (job) await this.arm(job);
  }

  private async onTimer(jobId: string, fireAt: string): Promise<void> {
    if (this.stopped) return;
    const job = await this.deps.store.getJob(jobId);
    if (job) await this.fire(job, fireAt);
  }

  /** Runs the fire time (if this claim wins) and arms the next one either way. */
  private async fire(job: CronJobRow, fireAt: string): Promise<void> {
    try {
      await this.deps.runner.start(job, fireAt);
    } catch (error) {
      this.deps.logger.error({ err: error, jobId: job.id }, "cron fire failed");
    }
    if (this.stopped) return;
    const fresh = await this.deps.store.getJob(job.id);
    if (fresh) await this.arm(fresh, Date.parse(fireAt));
  }
}
