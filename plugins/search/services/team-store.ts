import { atomically, defineStore, type Database, type EntityStore } from "@muster/plugin";
import { SearchState } from "../entities/search-state.ts";
import type { SearchStats } from "./search-index.ts";

/** What one instance publishes of its index (team mode): its stats, and how far it followed the deployment. */
export interface InstanceState {
  stats: SearchStats;
  /** It was the deployment's primary when it wrote this. */
  primary: boolean;
  /** The last deployment re-index request ({@link TeamStore.requestReindex}) its index has caught up with. */
  reindexed: number;
}

/** Each instance's {@link InstanceState}: `team.instance/<instance id>`. */
const INSTANCE_PREFIX = "team.instance/";
/** The deployment's re-index requests, counted: the value is the last request's number. */
const REINDEX_KEY = "team.reindex";
/** The NOTIFY channel a re-index request is announced on (its number as the payload). */
export const REINDEX_CHANNEL = "search_reindex";

const UPSERT = `INSERT INTO search_state (key, value, data, "updatedAt") VALUES (?, ?, NULL, ?)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, "updatedAt" = excluded."updatedAt"`;
// PostgreSQL only (team mode): the counter is incremented where it is stored, so concurrent requests get distinct numbers.
const NEXT_REQUEST = `INSERT INTO search_state (key, value, data, "updatedAt") VALUES (?, '1', NULL, ?)
  ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(search_state.value AS INTEGER) + 1 AS TEXT), "updatedAt" = excluded."updatedAt"
  RETURNING value`;

const states = defineStore(SearchState, { key: "key", fields: ["key", "value"] });

/**
 * Team mode's rows of the search plugin, beside the saved index in `search_state` (no table
 * of its own: a few small rows, PostgreSQL only). Every instance indexes the shared
 * workspace itself; these rows let each answer for the deployment: the instances' stats
 * (the primary's are the deployment's) and the re-index requests every instance follows.
 */
export class TeamStore {
  private readonly db: () => Database;
  private readonly states: EntityStore<typeof SearchState, "key">;
  constructor(db: () => Database) {
    this.db = db;
    this.states = states.on(db);
  }

  /** Replaces this instance's published state (one upsert). */
  async publish(instanceId: string, state: InstanceState): Promise<void> {
    const row = [`${INSTANCE_PREFIX}${instanceId}`, JSON.stringify(state), new Date().toISOString()];
    await atomically(this.db(), (tx) => tx.run(UPSERT, row));
  }

  /** Every instance's published state, by instance id (one read; rows of dead instances included). */
  async instances(): Promise<Map<string, InstanceState>> {
    const rows = await this.states.list({ where: { key: { $like: `${INSTANCE_PREFIX}%` } } });
    return new Map(rows.map((r) => [r.key.slice(INSTANCE_PREFIX.length), JSON.parse(r.value) as InstanceState]));
  }

  /** Deletes the published state of the given instances (stopped or dead). */
  async forget(instanceIds: string[]): Promise<void> {
    if (instanceIds.length === 0) return;
    await this.states.qb().delete({ key: { $in: instanceIds.map((id) => `${INSTANCE_PREFIX}${id}`) } }).execute("run");
  }

  /** Counts a new re-index request and announces it to every instance (NOTIFY, at the commit); its number. */
  requestReindex(): Promise<number> {
    return atomically(this.db(), function* (tx) {
      const row = yield* tx.get<{ value: string }>(NEXT_REQUEST, [REINDEX_KEY, new Date().toISOString()]);
      yield* tx.run("SELECT pg_notify(?, ?)", [REINDEX_CHANNEL, row!.value]);
      return Number(row!.value);
    });
  }

  /** The last re-index request's number (0: none yet). */
  async reindexRequested(): Promise<number> {
    const row = await this.states.get(REINDEX_KEY);
    return row ? Number(row.value) : 0;
  }
}
