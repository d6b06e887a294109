import { defineStore, insertionOrder, type Database, type EntityStore } from "@muster/plugin";
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
  constructor(db: () => Database) {
    this.db = db;
    this.rows = activities.on(db);
  }

  /**
   * Appends one row as a single synchronous raw statement on the shared connection: other
   * plugins log from inside their own `sql.transaction()` (the vault audits a secret's
   * reveal in the transaction that reads it, so an access that cannot be audited does not
   * happen), which an awaited ORM insert could not join.
   */
  append(row: ActivityRow): void {
    this.insertStatement ??= this.db().sql.prepare(`INSERT INTO activities_activities (${FIELDS.join(", ")}) VALUES (${FIELDS.map((f) => `@${f}`).join(", ")})`);
    this.insertStatement.run(row);
  }

  /** Newest first. */
  list(query: ActivityFilter): Promise<ActivityRow[]> {
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
