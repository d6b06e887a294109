import type BetterSqlite3 from "better-sqlite3";
import { defineStore, insertionOrder, type Database, type EntityStore, type StoreDefinition } from "@muster/plugin";
import { KINDS, referencesTo, type WorkKind, type WorkRecord } from "./kinds.ts";

/** The task list's exact-match filters (GET /api/tasks query parameters). */
export const TASK_FILTERS = ["status", "priority", "assignedTo", "projectId", "sprintId"] as const;
export type TaskFilter = Partial<Record<(typeof TASK_FILTERS)[number], string>>;

/** Each kind's columns, derived once from its entity. */
const FIELDS = Object.fromEntries(Object.values(KINDS).map((spec) => [spec.kind, Object.keys(spec.entity.meta.properties)])) as Record<WorkKind, string[]>;

/**
 * Each kind's store: most recently updated first, insertion order breaking ties; rows
 * unmapped (columns carry the property names and no work column needs converting, so
 * mapping each row would only cost time).
 */
const STORES = Object.fromEntries(
  Object.values(KINDS).map((spec) => [spec.kind, defineStore(spec.entity, { orderBy: [{ updatedAt: "desc" }, insertionOrder("desc")], mapRows: false })]),
) as unknown as Record<WorkKind, StoreDefinition<(typeof KINDS)[WorkKind]["entity"], "id">>;

type Row = Record<string, unknown>;

/** Each kind's INSERT of a whole row, with a named parameter per column. */
const INSERTS = Object.fromEntries(
  Object.values(KINDS).map((spec) => [spec.kind, `INSERT INTO ${spec.table} (${FIELDS[spec.kind].map((f) => `"${f}"`).join(", ")}) VALUES (${FIELDS[spec.kind].map((f) => `@${f}`).join(", ")})`]),
) as Record<WorkKind, string>;

/** Each kind's unfiltered list, most recently updated first (the stores' order as SQL). */
const LISTS = Object.fromEntries(
  Object.values(KINDS).map((spec) => [spec.kind, `SELECT ${FIELDS[spec.kind].map((f) => `"${f}"`).join(", ")} FROM ${spec.table} ORDER BY "updatedAt" DESC, rowid DESC`]),
) as Record<WorkKind, string>;

type Statement<P extends unknown[] | {}> = BetterSqlite3.Statement<P>;

/**
 * The five work tables. Reads go over the store kit and return plain rows, unmapped.
 *
 * The two hottest statements, a create's INSERT and the unfiltered list of a kind (DESIGN
 * §1: hot reads return raw rows), run as statements prepared once on the connection
 * (`db.sql`): the query builder put each create's values into its SQL text, so every create
 * compiled a new statement (issue 26: a create's ORM work was a quarter of its server CPU),
 * and its layers cost a list more than the statement they end in.
 */
export class WorkStore {
  private readonly db: () => Database;
  /** Prepared once per kind (and connection), re-run per request. */
  private readonly inserts = new Map<WorkKind, Statement<[Row]>>();
  private readonly lists = new Map<WorkKind, Statement<[]>>();
  private readonly rows: Record<WorkKind, EntityStore<(typeof KINDS)[WorkKind]["entity"]>>;
  constructor(db: () => Database) {
    this.db = db;
    this.rows = Object.fromEntries(Object.entries(STORES).map(([kind, store]) => [kind, store.on(db)])) as WorkStore["rows"];
  }

  private prepared<P extends unknown[] | {}>(cache: Map<WorkKind, Statement<P>>, kind: WorkKind, text: () => string): Statement<P> {
    let statement = cache.get(kind);
    if (!statement) {
      statement = this.db().sql.prepare<P>(text());
      cache.set(kind, statement);
    }
    return statement;
  }

  /** Every record of a kind, most recently updated first. */
  async list<K extends WorkKind>(kind: K): Promise<WorkRecord<K>[]> {
    return this.prepared(this.lists, kind, () => LISTS[kind]).all() as WorkRecord<K>[];
  }

  /**
   * One page of the tasks matching every given filter, most recently updated first, and how
   * many match in all. The count is only queried when the page does not tell it.
   */
  async tasks(filter: TaskFilter, page: { limit: number | null; offset: number }): Promise<{ items: WorkRecord<"task">[]; total: number }> {
    const where: TaskFilter = {};
    for (const column of TASK_FILTERS) if (filter[column] !== undefined) where[column] = filter[column];
    const filtered = Object.keys(where).length > 0;
    const items = (
      !filtered && page.limit === null && page.offset === 0
        ? await this.list("task")
        : await this.rows.task.list({ where, limit: page.limit ?? undefined, offset: page.offset })
    ) as WorkRecord<"task">[];
    // A page that ends before its limit holds the last matching task, unless it is empty
    // because the offset is past the end.
    const complete = (page.limit === null || items.length < page.limit) && (items.length > 0 || page.offset === 0);
    const total = complete ? page.offset + items.length : await this.rows.task.count(where);
    return { items, total };
  }

  async find<K extends WorkKind>(kind: K, id: string): Promise<WorkRecord<K> | undefined> {
    return ((await this.rows[kind].get(id)) ?? undefined) as WorkRecord<K> | undefined;
  }

  async exists(kind: WorkKind, id: string): Promise<boolean> {
    return (await this.rows[kind].count({ id })) > 0;
  }

  /**
   * Inserts a new row (every column given: the service fills defaults and nulls); false when
   * its id is taken. No `em.insert`, which would normalise and validate what the request
   * schemas already did; the driver error is converted as the entity manager would.
   */
  async insert(kind: WorkKind, row: Row): Promise<boolean> {
    try {
      this.prepared(this.inserts, kind, () => INSERTS[kind]).run(row);
      return true;
    } catch (error) {
      if (this.db().em().getDriver().convertException(error as Error).name === "UniqueConstraintViolationException") return false;
      throw error;
    }
  }

  /**
   * Deletes a record and clears every reference to it; returns the records whose
   * references were cleared, or null when there was no such record. Several statements
   * that must commit together, so one synchronous `sql.transaction()` on the shared
   * connection, which no other request's statement can interleave with (an awaited ORM
   * transaction could not promise that).
   */
  /**
   * Gives a task to an agent and starts it, in one conditional UPDATE so that of many agents
   * claiming at once exactly one wins: only a `backlog` task that is unassigned or already
   * assigned to this agent can be claimed; claiming one's own `in_progress` task again
   * succeeds without a change (a retried claim is safe). False when the task is not claimable.
   */
  claimTask(id: string, agentId: string, now: string): boolean {
    const claimed = this.db()
      .sql.prepare(
        `UPDATE work_tasks SET assignedTo = @agentId, status = 'in_progress', completedAt = NULL, updatedAt = @now
         WHERE id = @id AND ((status = 'backlog' AND (assignedTo IS NULL OR assignedTo = '' OR assignedTo = @agentId))
                             OR (status = 'in_progress' AND assignedTo = @agentId))`,
      )
      .run({ id, agentId, now });
    return claimed.changes === 1;
  }

  deleteAndClearReferences(kind: WorkKind, id: string, now: string): { kind: WorkKind; id: string }[] | null {
    const spec = KINDS[kind];
    const db = this.db().sql;
    const touched: { kind: WorkKind; id: string }[] = [];
    return db.transaction(() => {
      if (db.prepare(`DELETE FROM ${spec.table} WHERE id = ?`).run(id).changes === 0) return null;
      for (const ref of referencesTo(kind)) {
        if (ref.list) {
          const rows = db.prepare(`SELECT id, ${ref.field} AS ids FROM ${ref.spec.table} WHERE ${ref.field} LIKE ?`).all(`%${JSON.stringify(id)}%`) as { id: string; ids: string }[];
          const update = db.prepare(`UPDATE ${ref.spec.table} SET ${ref.field} = ?, updatedAt = ? WHERE id = ?`);
          for (const row of rows) {
            const remaining = (JSON.parse(row.ids) as string[]).filter((x) => x !== id);
            update.run(JSON.stringify(remaining), now, row.id);
            touched.push({ kind: ref.spec.kind, id: row.id });
          }
        } else {
          const rows = db.prepare(`SELECT id FROM ${ref.spec.table} WHERE ${ref.field} = ?`).all(id) as { id: string }[];
          db.prepare(`UPDATE ${ref.spec.table} SET ${ref.field} = NULL, updatedAt = ? WHERE ${ref.field} = ?`).run(now, id);
          for (const row of rows) touched.push({ kind: ref.spec.kind, id: row.id });
        }
      }
      return touched;
    })();
  }
}
