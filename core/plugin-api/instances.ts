/**
 * The Muster processes serving one database (`hostTokens.instances`). With SQLite there is
 * one (the home's instance lock); in team mode (PostgreSQL) several, each registered with a
 * heartbeat. A store that marks work "in flight" records the instance that took it, and what
 * a previous or dead process left in flight is what no live instance owns:
 *
 * @example
 * const live = await instances.liveIds();
 * await atomically(db, function* (tx) {
 *   yield* tx.run(`UPDATE x_runs SET status = 'interrupted' WHERE status = 'running' AND (owner IS NULL OR owner NOT IN (${live.map(() => "?").join(", ")}))`, live);
 * });
 */
export interface Instances {
  /** This process's id, new at every start. */
  readonly id: string;
  /**
   * The instances alive now, this one included: on SQLite only this one; on PostgreSQL those
   * whose heartbeat the database saw within {@link Instances.deadAfterMs}.
   */
  liveIds(): Promise<string[]>;
  /** How long after its last heartbeat an instance counts as dead (0 on SQLite: one process). */
  readonly deadAfterMs: number;
  /** Several instances may serve this database (PostgreSQL): sweeps for dead owners should repeat, not only run at start. */
  readonly shared: boolean;
  /**
   * Whether this instance is the deployment's primary now: the live instance that started
   * first. Work that every instance observes but that must happen once (logging a shared
   * workspace's change, streaming it) is done by the primary only. Always true on SQLite;
   * on PostgreSQL read from the registry with each heartbeat, so when the primary dies
   * another takes over within about {@link Instances.deadAfterMs}.
   */
  primary(): boolean;
  /**
   * Team mode's repeated sweep: runs `sweep` every 2 s while the host runs and several
   * instances may serve the database ({@link Instances.shared}); on SQLite never (one process:
   * its start-up sweep settled all there is). A run never overlaps the previous one; an error
   * is logged as a warning ("`name` failed") with the calling plugin's logger, and the next
   * run comes as planned. The host stops every sweep when it stops, before any plugin's
   * `onStop`, and waits for a run in progress; the returned function stops this one earlier.
   *
   * @example
   * instances.everyWhileShared("cron sweep for dead instances", async () => {
   *   const count = await store.markInterrupted(now(), await instances.liveIds());
   *   if (count) logger.warn({ interrupted: count }, "runs of an instance that stopped answering were marked interrupted");
   * });
   */
  everyWhileShared(name: string, sweep: () => Promise<unknown>): () => void;
}
