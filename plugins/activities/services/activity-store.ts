import { raw, type Database } from "@muster/plugin";
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

/** `activities_activities`: the list through MikroORM's query builder (plain rows, no entities). */
export class ActivityStore {
  private readonly db: () => Database;
  private insertStatement?: ReturnType<Database["sql"]["prepare"]>;
  constructor(db: () => Database) {
    this.db = db;
  }

  /**
   * Appends one row as a single synchronous statement on the shared connection: other
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
    return this.db()
      .em()
      .createQueryBuilder(Activity)
      .select(FIELDS)
      .where({
        ...(query.agentId ? { agentId: query.agentId } : {}),
        ...(query.action ? { action: query.action } : {}),
        ...(query.since ? { timestamp: { $gte: query.since } } : {}),
      })
      .orderBy([{ timestamp: "desc" }, { [raw("rowid")]: "desc" }])
      .limit(query.limit)
      .execute<ActivityRow[]>("all");
  }
}
