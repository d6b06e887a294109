import { SerialQueue, defineStore, insertionOrder, type Database, type EntityStore } from "@muster/plugin";
import { Activity, type ActivityRow } from "../entities/activity.ts";

/** Every column, derived once from the entity. */
const FIELDS = Object.keys(Activity.meta.properties) as (keyof ActivityRow)[];

export interface ActivityFilter {
  limit: number;
  agentId?: string;
  action?: string;
  /** ISO timestamp; only activities at or after it. */
  since?: string;
}

/** Newest first; activities of the same millisecond latest-inserted first. */
const activities = defineStore(Activity, { orderBy: [{ timestamp: "desc" }, insertionOrder("desc")] });

/** `activities_activities`: the list over the store kit (plain rows, no entities). */
export class ActivityStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof Activity>;
  private insertStatement?: ReturnType<Database["sql"]["prepare"]>;
  /** PostgreSQL's inserts, one after another in call order. */
  private readonly inserts = new SerialQueue();
  constructor(db: () => Database) {
    this.db = db;
    this.rows = activities.on(db);
  }

  /** Whether {@link append} is the engine's write: SQLite; PostgreSQL has no synchronous statement. */
  get synchronous(): boolean {
    return this.db().engine !== "postgresql";
  }

  /**
   * SQLite: appends one row as a single synchronous raw statement on the shared connection:
   * other plugins log from inside their own `sql.transaction()` (the vault audits a secret's
   * reveal in the transaction that reads it, so an access that cannot be audited does not
   * happen), which an awaited ORM insert could not join.
   */
  append(row: ActivityRow): void {
    this.insertStatement ??= this.db().sql.prepare(`INSERT INTO activities_activities (${FIELDS.join(", ")}) VALUES (${FIELDS.map((f) => `@${f}`).join(", ")})`);
    this.insertStatement.run(row);
  }

  /**
   * PostgreSQL: inserts one row through the store kit after every insert queued before it
   * (one failing does not stop the next), so one process's activities commit in call order.
   */
  appendQueued(row: ActivityRow): Promise<void> {
    return this.inserts.run(async () => void (await this.rows.insert(row)));
  }

  /** Resolves once every insert queued so far has settled. */
  async settled(): Promise<void> {
    await this.inserts.idle();
  }

  /** Newest first; on PostgreSQL after this process's queued inserts (a log then a list reads it). */
  async list(query: ActivityFilter): Promise<ActivityRow[]> {
    await this.inserts.idle();
    return this.rows.list({
      where: {
        ...(query.agentId ? { agentId: query.agentId } : {}),
        ...(query.action ? { action: query.action } : {}),
        ...(query.since ? { timestamp: { $gte: query.since } } : {}),
      },
      limit: query.limit,
    });
  }
}
