import { setTimeout as sleep } from "node:timers/promises";
import { token, type Database, type DatabaseListener, type Instances, type Logger } from "@muster/plugin";
import { searchErrors } from "../errors.ts";
import type { ReindexResult, SearchIndex, SearchStats } from "./search-index.ts";
import { REINDEX_CHANNEL, TeamStore } from "./team-store.ts";

/**
 * What `GET`/`POST /api/search` answer for: the deployment's index. On one process (SQLite)
 * the index itself. In team mode (several instances, one database, one shared workspace) each
 * instance keeps its own in-memory index of the workspace (its watcher sees every change, so
 * its searches are as fresh as one process's), and this is what makes the instances answer
 * alike: the primary's stats (its index is the saved one), a re-index run by every instance.
 */
export interface DeploymentSearch {
  stats(): SearchStats | Promise<SearchStats>;
  reindex(): Promise<ReindexResult>;
  /** Team mode: publishes this instance's state and follows the others (nothing on one process). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export const SEARCH_DEPLOYMENT = token<DeploymentSearch>("search.deployment");

/** How often a `POST /api/search` looks whether the other instances have re-indexed. */
const POLL_MS = 50;
/** How long it waits for them at most (a 10,000-file re-index takes a few seconds). */
const OTHERS_TIMEOUT_MS = 120_000;

/** One process: the index answers for itself. */
export function singleProcess(index: SearchIndex): DeploymentSearch {
  return { stats: () => index.stats(), reindex: () => index.reindex(), start: async () => {}, stop: async () => {} };
}

export interface TeamSearchDeps {
  index: SearchIndex;
  db: () => Database;
  instances: Instances;
  logger: Logger;
}

/**
 * Team mode's {@link DeploymentSearch}. Each instance publishes its index's stats in a row
 * (`search_state`, {@link TeamStore}) whenever they change; `stats` answers the primary's,
 * `indexing`/`state` of every live instance together (a search may go to any of them, so the
 * deployment is ready once each is). `POST /api/search` counts a request and NOTIFYs it;
 * every instance re-indexes (its listener, or its 2 s sweep when a notification was lost) and
 * publishes the request's number with its stats; the POST answers once every live instance
 * has, so a search through any of them then sees the re-index. Only the primary saves the
 * index ({@link SearchIndex} `persists`); an instance that becomes primary saves its own.
 */
export class TeamSearch implements DeploymentSearch {
  private readonly store: TeamStore;
  private listener: DatabaseListener | undefined;
  private stopSweep: () => void = () => undefined;
  private wasPrimary = false;
  /** The last request this instance's index has caught up with, as published (-1 until its start-up ended). */
  private reindexed = -1;
  /** The last request this instance's index covers or will once its start-up ends (it reads the workspace after them). */
  private covered = 0;
  private lastResult: ReindexResult | undefined;
  /** This instance's writes of its state, one after the other (two in flight could commit out of order). */
  private writes: Promise<void> = Promise.resolve();
  /** The write queued and not started yet, which a new call shares (it reads the state when it runs). */
  private queued: Promise<void> | undefined;
  private publishFailed = false;
  private stopped = false;
  private readonly deps: TeamSearchDeps;
  constructor(deps: TeamSearchDeps) {
    this.deps = deps;
    this.store = new TeamStore(deps.db);
  }

  /** Published before the server answers: the others then count this instance (and its start-up indexing) at once. */
  async start(): Promise<void> {
    this.wasPrimary = this.deps.instances.primary();
    // The start-up load or build reads the workspace after every request made so far.
    this.covered = await this.store.reindexRequested();
    await this.publish();
    void this.deps.index.startedUp().then(() => {
      this.reindexed = Math.max(this.reindexed, this.covered);
      this.changed();
    });
    this.listener = await this.deps.db().listen?.(REINDEX_CHANNEL, () => {
      if (!this.stopped) this.catchUp().catch((error) => this.deps.logger.warn({ err: error }, "search: a deployment re-index failed here"));
    });
    this.stopSweep = this.deps.instances.everyWhileShared("search's team sweep", () => this.follow());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopSweep();
    await this.listener?.close();
    await this.writes;
    await this.store.forget([this.deps.instances.id]).catch(() => undefined);
  }

  /** The index's stats changed: publish them. */
  changed(): void {
    if (!this.stopped) void this.publish();
  }

  /**
   * Writes this instance's state as it is when the write runs; resolves once a write that
   * started after this call has ended. Calls while one waits share it; a failure is logged
   * and the 2 s sweep writes again.
   */
  private publish(): Promise<void> {
    this.queued ??= this.writes = this.writes.then(async () => {
      this.queued = undefined;
      try {
        await this.store.publish(this.deps.instances.id, { stats: this.deps.index.stats(), primary: this.deps.instances.primary(), reindexed: this.reindexed });
        this.publishFailed = false;
      } catch (error) {
        this.publishFailed = true;
        this.deps.logger.warn({ err: error }, "search: this instance's stats could not be published");
      }
    });
    return this.queued;
  }

  /**
   * From the published rows, this instance's own included (the primary answers from its row
   * too): an instance's memory runs a write ahead of its row, and answering from memory here
   * while another answered from the row made two consecutive answers disagree (this one's
   * `indexing: false`, then the other's `true`). This instance's memory still counts for
   * `indexing` and `state`, so it never says done before its row does.
   */
  async stats(): Promise<SearchStats> {
    const [published, live] = await Promise.all([this.store.instances(), this.deps.instances.liveIds()]);
    const own = this.deps.index.stats();
    const rows = live.flatMap((id) => published.get(id) ?? []);
    const primary = rows.find((row) => row.primary)?.stats ?? own;
    const all = [own, ...rows.map((row) => row.stats)];
    return { ...primary, indexing: all.some((s) => s.indexing), state: all.every((s) => s.state === "ready") ? "ready" : "loading" };
  }

  async reindex(): Promise<ReindexResult> {
    const request = await this.store.requestReindex();
    // Defined: the request just counted is past what the start-up covered.
    const result = (await this.catchUp())!;
    await this.othersReached(request);
    return result;
  }

  /**
   * Re-indexes here when a request this index has not caught up with is waiting, then
   * publishes it. A run in progress is shared (`SearchIndex.reindex`), as concurrent calls
   * on one process share one run: during the start-up build, two calls get that build.
   */
  private async catchUp(): Promise<ReindexResult | undefined> {
    const requested = await this.store.reindexRequested();
    // Undefined only when nothing new was asked since the start-up (a listener's reconnect).
    if (requested <= this.covered) return this.lastResult;
    const result = await this.deps.index.reindex();
    if (requested > this.covered) {
      this.covered = requested;
      this.reindexed = Math.max(this.reindexed, requested);
      this.lastResult = result;
    }
    await this.publish();
    return result;
  }

  /**
   * Waits until every other live instance that publishes a state (runs search) has published
   * `request`; one that dies meanwhile is not waited for. One starting now has no row yet: its
   * sweep catches the request up within 2 s.
   */
  private async othersReached(request: number): Promise<void> {
    const deadline = Date.now() + OTHERS_TIMEOUT_MS;
    for (;;) {
      const [published, live] = await Promise.all([this.store.instances(), this.deps.instances.liveIds()]);
      const behind = live.filter((id) => id !== this.deps.instances.id && published.has(id) && published.get(id)!.reindexed < request);
      if (behind.length === 0) return;
      if (this.stopped) throw searchErrors.SEARCH_INDEX_UNAVAILABLE({ reason: "the server is shutting down" });
      if (Date.now() > deadline) throw searchErrors.SEARCH_INDEX_UNAVAILABLE({ reason: `instances ${behind.join(", ")} did not re-index within ${OTHERS_TIMEOUT_MS / 1000} s` });
      await sleep(POLL_MS);
    }
  }

  /**
   * Every 2 s: catches up with a request whose notification was lost, saves the whole index
   * once this instance became the primary, and (on the primary) forgets the rows of dead instances.
   */
  private async follow(): Promise<void> {
    if ((await this.store.reindexRequested()) > this.covered) await this.catchUp();
    const primary = this.deps.instances.primary();
    if (primary !== this.wasPrimary || this.publishFailed) {
      if (primary && !this.wasPrimary) this.deps.index.takeOverSaving();
      this.wasPrimary = primary;
      await this.publish();
    }
    if (!primary) return;
    // Rows first: an instance registers before it publishes, so one whose row is read here is
    // in the live list read after (read the other way, one starting between the reads lost its row).
    const published = await this.store.instances();
    const live = new Set(await this.deps.instances.liveIds());
    await this.store.forget([...published.keys()].filter((id) => !live.has(id)));
  }
}
