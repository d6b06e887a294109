// Create, read, update and delete for the five work record kinds, with reference checks
// (400 naming the field) and reference clearing on delete in one transaction.
import { randomUUID } from "node:crypto";
import type { Statement } from "better-sqlite3";
import type { Database, EventBus } from "@muster/plugin";
import { workErrors } from "../errors.ts";
import { KINDS, referencesTo, type WorkKind } from "./kinds.ts";
import type { WorkTracker } from "../tokens.ts";

export type WorkRecord = Record<string, unknown> & { id: string; createdAt: string; updatedAt: string };

/** The task list's exact-match filters (GET /api/tasks query parameters). */
const TASK_FILTERS = ["status", "assignedTo", "projectId", "sprintId"] as const;
export type TaskFilter = Partial<Record<(typeof TASK_FILTERS)[number], string>>;

export interface WorkServiceDeps {
  db: () => Database;
  events: EventBus;
}

export class WorkService implements WorkTracker {
  private readonly statements = new Map<string, Statement<unknown[]>>();
  /** Column names of each kind's table, read once from SQLite. */
  private readonly columns = new Map<WorkKind, string[]>();

  private readonly deps: WorkServiceDeps;
  constructor(deps: WorkServiceDeps) {
    this.deps = deps;
  }

  private prepared(sql: string) {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.deps.db().sql.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** All records of a kind, most recently updated first (raw rows: the API shape). */
  list(kind: WorkKind): WorkRecord[] {
    return this.prepared(`SELECT * FROM ${KINDS[kind].table} ORDER BY updatedAt DESC, rowid DESC`).all() as WorkRecord[];
  }

  /**
   * One page of the tasks matching every given filter, most recently updated first, and
   * how many match in all. Filter columns are fixed names, values are bound parameters.
   */
  listTasks(filter: TaskFilter, page: { limit: number | null; offset: number }): { items: WorkRecord[]; total: number } {
    const given = TASK_FILTERS.filter((column) => filter[column] !== undefined);
    const where = given.length > 0 ? ` WHERE ${given.map((column) => `${column} = ?`).join(" AND ")}` : "";
    const values = given.map((column) => filter[column]);
    const table = KINDS.task.table;
    const items = this.prepared(`SELECT * FROM ${table}${where} ORDER BY updatedAt DESC, rowid DESC LIMIT ? OFFSET ?`).all(...values, page.limit ?? -1, page.offset) as WorkRecord[];
    const total = (this.prepared(`SELECT COUNT(*) AS n FROM ${table}${where}`).get(...values) as { n: number }).n;
    return { items, total };
  }

  find(kind: WorkKind, id: string): WorkRecord | undefined {
    return this.prepared(`SELECT * FROM ${KINDS[kind].table} WHERE id = ?`).get(id) as WorkRecord | undefined;
  }

  get(kind: WorkKind, id: string): WorkRecord {
    const record = this.find(kind, id);
    if (!record) throw KINDS[kind].notFound(id);
    return record;
  }

  exists(kind: WorkKind, id: string): boolean {
    return this.prepared(`SELECT 1 FROM ${KINDS[kind].table} WHERE id = ?`).get(id) !== undefined;
  }

  /**
   * Creates a record from validated input. `options.id` is for importers that keep
   * existing ids (HTTP callers cannot set ids); an existing id is a 409.
   */
  async create(kind: WorkKind, input: Record<string, unknown>, options: { id?: string } = {}): Promise<WorkRecord> {
    const spec = KINDS[kind];
    const data = this.toColumns(kind, { ...spec.defaults, ...input });
    this.checkReferences(kind, data);
    checkDates(data);
    const now = new Date().toISOString();
    const id = options.id ?? randomUUID();
    if (options.id && this.exists(kind, id)) throw workErrors.WORK_ID_EXISTS({ kind, id });
    const record = { ...data, id, createdAt: now, updatedAt: now } as WorkRecord;
    if (spec.completes) record.completedAt = record.status === "done" ? now : null;
    this.insert(kind, record);
    this.deps.events.publish(`work.${kind}.created`, record, { public: true });
    return record;
  }

  /**
   * Inserts one new row with a single prepared statement. The invariants of a create
   * (references exist, dates in order, `completedAt` follows `status`) are checked above,
   * and a fresh row has nothing for the unit of work to track: going through
   * `em.create()` + `flush()` cost 40% more CPU per POST (see docs/benchmarks.md).
   */
  private insert(kind: WorkKind, record: WorkRecord): void {
    const spec = KINDS[kind];
    let columns = this.columns.get(kind);
    if (!columns) {
      columns = (this.deps.db().sql.pragma(`table_info(${spec.table})`) as { name: string }[]).map((c) => c.name);
      this.columns.set(kind, columns);
    }
    const unknown = Object.keys(record).filter((key) => !columns.includes(key));
    if (unknown.length > 0) throw new Error(`${kind} has no column(s) ${unknown.join(", ")}`);
    const statement = this.prepared(`INSERT INTO ${spec.table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
    try {
      statement.run(columns.map((c) => record[c] ?? null));
    } catch (error) {
      if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY") throw workErrors.WORK_ID_EXISTS({ kind, id: record.id });
      throw error;
    }
  }

  /** Applies a validated partial update; `updatedAt` always moves, `completedAt` follows `status`. */
  async update(kind: WorkKind, id: string, patch: Record<string, unknown>): Promise<WorkRecord> {
    const spec = KINDS[kind];
    const em = this.deps.db().em();
    const entity = (await em.findOne(spec.entity, { id })) as Record<string, unknown> | null;
    if (!entity) throw spec.notFound(id);
    const changes = this.toColumns(kind, patch);
    this.checkReferences(kind, changes);
    checkDates({ ...entity, ...changes });
    const now = new Date().toISOString();
    if (spec.completes && "status" in changes && changes.status !== entity.status) {
      changes.completedAt = changes.status === "done" ? now : null;
    }
    Object.assign(entity, changes, { updatedAt: now });
    await em.flush();
    const record = this.get(kind, id);
    this.deps.events.publish(`work.${kind}.updated`, record, { public: true });
    return record;
  }

  /** Deletes a record and clears every reference to it, atomically. */
  delete(kind: WorkKind, id: string): void {
    const spec = KINDS[kind];
    const db = this.deps.db().sql;
    const now = new Date().toISOString();
    const touched: { kind: WorkKind; id: string }[] = [];
    db.transaction(() => {
      if (db.prepare(`DELETE FROM ${spec.table} WHERE id = ?`).run(id).changes === 0) throw spec.notFound(id);
      for (const ref of referencesTo(kind)) {
        if (ref.list) {
          const rows = db.prepare(`SELECT id, ${ref.field} AS ids FROM ${ref.spec.table} WHERE ${ref.field} LIKE ?`).all(`%${JSON.stringify(id)}%`) as { id: string; ids: string }[];
          for (const row of rows) {
            const remaining = (JSON.parse(row.ids) as string[]).filter((x) => x !== id);
            db.prepare(`UPDATE ${ref.spec.table} SET ${ref.field} = ?, updatedAt = ? WHERE id = ?`).run(JSON.stringify(remaining), now, row.id);
            touched.push({ kind: ref.spec.kind, id: row.id });
          }
        } else {
          const rows = db.prepare(`SELECT id FROM ${ref.spec.table} WHERE ${ref.field} = ?`).all(id) as { id: string }[];
          db.prepare(`UPDATE ${ref.spec.table} SET ${ref.field} = NULL, updatedAt = ? WHERE ${ref.field} = ?`).run(now, id);
          for (const row of rows) touched.push({ kind: ref.spec.kind, id: row.id });
        }
      }
    })();
    this.deps.events.publish(`work.${kind}.deleted`, { id }, { public: true });
    for (const t of touched) {
      const record = this.find(t.kind, t.id);
      if (record) this.deps.events.publish(`work.${t.kind}.updated`, record, { public: true });
    }
  }

  /** Request shapes to stored columns: list references are stored as JSON strings. */
  private toColumns(kind: WorkKind, input: Record<string, unknown>): Record<string, unknown> {
    const out = { ...input };
    for (const field of Object.keys(KINDS[kind].listRefs)) {
      if (Array.isArray(out[field])) out[field] = JSON.stringify([...new Set(out[field] as string[])]);
    }
    return out;
  }

  private checkReferences(kind: WorkKind, data: Record<string, unknown>): void {
    const spec = KINDS[kind];
    for (const [field, target] of Object.entries(spec.refs)) {
      const value = data[field];
      if (typeof value === "string" && !this.exists(target, value)) {
        throw workErrors.WORK_REFERENCE_NOT_FOUND({ field, kind: target, id: value }, { details: [{ path: field, reason: `no ${target} with id ${value}`, in: "body" }] });
      }
    }
    for (const [field, target] of Object.entries(spec.listRefs)) {
      const value = data[field];
      if (typeof value !== "string") continue;
      (JSON.parse(value) as string[]).forEach((ref, index) => {
        if (!this.exists(target, ref)) {
          throw workErrors.WORK_REFERENCE_NOT_FOUND({ field, kind: target, id: ref }, { details: [{ path: `${field}.${index}`, reason: `no ${target} with id ${ref}`, in: "body" }] });
        }
      });
    }
  }
}

function checkDates(data: Record<string, unknown>): void {
  const { startDate, endDate } = data;
  if (typeof startDate === "string" && typeof endDate === "string" && Date.parse(endDate) < Date.parse(startDate)) {
    throw workErrors.WORK_INVALID_DATES({}, { details: [{ path: "endDate", reason: "before startDate", in: "body" }] });
  }
}
