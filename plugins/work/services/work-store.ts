import { DriverException } from "@mikro-orm/core";
import { atomically, defineStore, insertionOrder, preparedStatement, type AtomicStatement, type AtomicTx, type Database, type EntityStore, type PreparedStatement, type StoreDefinition } from "@muster/plugin";
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
type Engine = "sqlite" | "postgresql";

const columns = (kind: WorkKind) => FIELDS[kind].map((f) => `"${f}"`).join(", ");

/**
 * The stores' order as SQL. On PostgreSQL, which has no `rowid`: most recently updated first,
 * then the latest written first (`xmin`, the id of the transaction that wrote the row's
 * version: they increase, so rows inserted in the same millisecond come newest first, as on
 * SQLite), then the id (the rows one transaction wrote, such as a delete's cleared
 * references). A row inserted and another updated in the same millisecond come in write
 * order, where SQLite puts the later inserted first.
 */
const ORDER: Record<Engine, string> = {
  sqlite: `"updatedAt" DESC, rowid DESC`,
  postgresql: `"updatedAt" DESC, (xmin::text::bigint) DESC, id DESC`,
};

const byKind = <T>(make: (kind: WorkKind) => T) => Object.fromEntries(Object.keys(KINDS).map((kind) => [kind, make(kind as WorkKind)])) as Record<WorkKind, T>;

/** Each kind's INSERT of a whole row, a parameter per column in FIELDS order (the same text on both engines). */
const INSERT_SQL = byKind((kind) => `INSERT INTO ${KINDS[kind].table} (${columns(kind)}) VALUES (${FIELDS[kind].map(() => "?").join(", ")})`);
const INSERTS = byKind((kind) => preparedStatement(INSERT_SQL[kind]));

/** Each kind's unfiltered list, most recently updated first, per engine. */
const LISTS: Record<Engine, Record<WorkKind, PreparedStatement<Row>>> = {
  sqlite: byKind((kind) => preparedStatement(`SELECT ${columns(kind)} FROM ${KINDS[kind].table} ORDER BY ${ORDER.sqlite}`)),
  postgresql: byKind((kind) => preparedStatement(`SELECT ${columns(kind)} FROM ${KINDS[kind].table} ORDER BY ${ORDER.postgresql}`)),
};

/**
 * On PostgreSQL, a page of the tasks matching the filters named in `filtered` (TASK_FILTERS
 * order), parameters: their values, then LIMIT (null: all) and OFFSET. One statement per
 * combination of filters, made on first use (at most 32).
 */
const TASK_PAGES = new Map<string, PreparedStatement<Row>>();
function taskPage(filtered: readonly string[]): PreparedStatement<Row> {
  const key = filtered.join(",");
  let statement = TASK_PAGES.get(key);
  if (!statement) {
    const where = filtered.length > 0 ? ` WHERE ${filtered.map((c) => `"${c}" = ?`).join(" AND ")}` : "";
    TASK_PAGES.set(key, (statement = preparedStatement(`SELECT ${columns("task")} FROM ${KINDS.task.table}${where} ORDER BY ${ORDER.postgresql} LIMIT ? OFFSET ?`)));
  }
  return statement;
}

/**
 * The five work tables. Reads go over the store kit and return plain rows, unmapped.
 *
 * The two hottest statements, a create's INSERT and the unfiltered list of a kind (DESIGN §1:
 * hot reads return raw rows), and on PostgreSQL a page of tasks, are the kit's prepared
 * statements (prepared once per connection, re-run per request), not the query builder: it
 * put each create's values into its SQL text, so every create compiled a new statement
 * (issue 26: a create's ORM work was a quarter of its server CPU), and its layers cost a list
 * more than the statement they end in (issue 25: on PostgreSQL, 2.7 ms of server CPU per
 * list of 100 tasks, most of it MikroORM's and kysely's work and the SQL parsed anew).
 */
export class WorkStore {
  private readonly db: () => Database;
  private readonly rows: Record<WorkKind, EntityStore<(typeof KINDS)[WorkKind]["entity"]>>;
  constructor(db: () => Database) {
    this.db = db;
    this.rows = Object.fromEntries(Object.entries(STORES).map(([kind, store]) => [kind, store.on(db)])) as WorkStore["rows"];
  }

  /** Every record of a kind, most recently updated first. */
  async list<K extends WorkKind>(kind: K): Promise<WorkRecord<K>[]> {
    const db = this.db();
    return (await LISTS[db.engine ?? "sqlite"][kind].all(db)) as WorkRecord<K>[];
  }

  /**
   * One page of the tasks matching every given filter, most recently updated first, and how
   * many match in all. The count is only queried when the page does not tell it.
   */
  async tasks(filter: TaskFilter, page: { limit: number | null; offset: number }): Promise<{ items: WorkRecord<"task">[]; total: number }> {
    const where: TaskFilter = {};
    for (const column of TASK_FILTERS) if (filter[column] !== undefined) where[column] = filter[column];
    const filtered = Object.keys(where);
    const db = this.db();
    const items = (
      filtered.length === 0 && page.limit === null && page.offset === 0
        ? await this.list("task")
        : db.engine === "postgresql"
          ? await taskPage(filtered).all(db, [...filtered.map((c) => where[c as keyof TaskFilter]), page.limit, page.offset])
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
  async insert(kind: WorkKind, row: Row, references: WorkReference[]): Promise<"inserted" | "taken" | WorkReference> {
    const values = FIELDS[kind].map((f) => row[f]);
    try {
      const db = this.db();
      // On PostgreSQL a row without references is one statement, atomic by itself.
      if (db.engine === "postgresql" && references.length === 0) {
        await INSERTS[kind].run(db, values);
        return "inserted";
      }
      // Otherwise the references are checked (on PostgreSQL locked) in the step that writes
      // the row. On SQLite the step shares its commit with the other creates of the same turn
      // (issue 26: a create's largest cost was its own commit), so it runs at the end of the
      // turn, after the caller's own check: it checks again.
      const sql = INSERT_SQL[kind];
      return await atomically(
        db,
        function* (tx) {
          const missing = yield* lockReferences(tx, db, references);
          if (missing) return missing;
          yield* tx.run(sql, values);
          return "inserted" as const;
        },
        { grouped: true },
      );
    } catch (error) {
      // The driver's own error (SQLite's or PostgreSQL's), converted as the entity manager would.
      const converted = error instanceof DriverException ? error : this.db().em().getDriver().convertException(error as Error);
      if (converted.name === "UniqueConstraintViolationException") return "taken";
      throw error;
    }
  }

  /**
   * Writes `changes` (and `updatedAt`) to a record, its references checked in the same step:
   * "gone" when the record was deleted meanwhile, the first missing reference when one was.
   */
  update(kind: WorkKind, id: string, changes: Row, references: WorkReference[]): Promise<"updated" | "gone" | WorkReference> {
    const db = this.db();
    const columns = Object.keys(changes);
    const sql = `UPDATE ${KINDS[kind].table} SET ${columns.map((c) => `"${c}" = ?`).join(", ")} WHERE id = ?`;
    return atomically(db, function* (tx) {
      const missing = yield* lockReferences(tx, db, references);
      if (missing) return missing;
      return (yield* tx.run(sql, [...columns.map((c) => changes[c]), id])).changes === 0 ? ("gone" as const) : ("updated" as const);
    });
  }

  /**
   * Gives a task to an agent and starts it, in one conditional UPDATE so that of many agents
   * claiming at once exactly one wins: only a `backlog` task that is unassigned or already
   * assigned to this agent can be claimed; claiming one's own `in_progress` task again
   * succeeds without a change (a retried claim is safe). The claimed task, or null when it is
   * not claimable. On PostgreSQL a concurrent claim waits for the row and re-checks the
   * condition on the winner's version of it, so there too one wins.
   */
  claimTask(id: string, agentId: string, now: string): Promise<WorkRecord<"task"> | null> {
    return this.rows.task.transition(id, {
      from: { $or: [{ status: "backlog", $or: [{ assignedTo: null }, { assignedTo: "" }, { assignedTo: agentId }] }, { status: "in_progress", assignedTo: agentId }] },
      set: { assignedTo: agentId, status: "in_progress", completedAt: null, updatedAt: now },
    }) as Promise<WorkRecord<"task"> | null>;
  }

  /**
   * Deletes a record and clears every reference to it; returns the records whose
   * references were cleared, or null when there was no such record. Several statements
   * that must commit together: one `atomically` step (synchronous on SQLite, where no other
   * request's statement can interleave; a transaction of its own on PostgreSQL).
   */
  deleteAndClearReferences(kind: WorkKind, id: string, now: string): Promise<{ kind: WorkKind; id: string }[] | null> {
    const db = this.db();
    // A list reference (a sprint's story ids) is read, changed in code and written back: on
    // PostgreSQL the read locks the rows until the commit, so a concurrent change of the list
    // waits and is not lost (docs/store-kit.md).
    const lockRead = db.engine === "postgresql" ? " FOR UPDATE" : "";
    return atomically(db, function* (tx) {
      if ((yield* tx.run(`DELETE FROM ${KINDS[kind].table} WHERE id = ?`, [id])).changes === 0) return null;
      const touched: { kind: WorkKind; id: string }[] = [];
      for (const ref of referencesTo(kind)) {
        const { table } = ref.spec;
        if (ref.list) {
          const rows = yield* tx.all<{ id: string; ids: string }>(`SELECT id, "${ref.field}" AS ids FROM ${table} WHERE "${ref.field}" LIKE ?${lockRead}`, [`%${JSON.stringify(id)}%`]);
          for (const row of rows) {
            const remaining = (JSON.parse(row.ids) as string[]).filter((x) => x !== id);
            yield* tx.run(`UPDATE ${table} SET "${ref.field}" = ?, "updatedAt" = ? WHERE id = ?`, [JSON.stringify(remaining), now, row.id]);
            touched.push({ kind: ref.spec.kind, id: row.id });
          }
        } else {
          const rows = yield* tx.all<{ id: string }>(`UPDATE ${table} SET "${ref.field}" = NULL, "updatedAt" = ? WHERE "${ref.field}" = ? RETURNING id`, [now, id]);
          for (const row of rows) touched.push({ kind: ref.spec.kind, id: row.id });
        }
      }
      return touched;
    });
  }
}

/** A reference a write makes: `field` (at `path` in the request body) names record `id` of kind `kind`. */
export interface WorkReference {
  field: string;
  path: string;
  kind: WorkKind;
  id: string;
}

/**
 * Inside a write's step, the first of `references` whose record does not exist, or null.
 * On PostgreSQL each found record stays locked against deletion (`FOR KEY SHARE`) until the
 * write commits: a concurrent delete of it waits, then clears the new reference with the
 * others; one that committed first leaves it missing here. On SQLite the step runs alone
 * on the connection, so a plain read is enough.
 */
function* lockReferences(tx: AtomicTx, db: Database, references: WorkReference[]): Generator<AtomicStatement, WorkReference | null, unknown> {
  const lock = db.engine === "postgresql" ? " FOR KEY SHARE" : "";
  for (const ref of references) {
    if (!(yield* tx.get(`SELECT id FROM ${KINDS[ref.kind].table} WHERE id = ?${lock}`, [ref.id]))) return ref;
  }
  return null;
}
