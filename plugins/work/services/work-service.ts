// Create, read, update and delete for the five work record kinds, with reference checks
// (400 naming the field) and reference clearing on delete in one transaction.
import { randomUUID } from "node:crypto";
import type { Database, EventBus, TextRedactor } from "@muster/plugin";
import { workErrors } from "../errors.ts";
import { KINDS, type WorkKind, type WorkRecord } from "./kinds.ts";
import { WorkStore, type TaskFilter, type WorkReference } from "./work-store.ts";
import type { TaskUpdateGuard, WorkTracker } from "../tokens.ts";

export type { TaskFilter, WorkRecord };

export interface WorkServiceDeps {
  db: () => Database;
  events: EventBus;
  /** Scrubs vault secret values from the free-text fields before they are stored. */
  redaction: TextRedactor;
}

export class WorkService implements WorkTracker {
  private readonly deps: WorkServiceDeps;
  private readonly store: WorkStore;
  private readonly taskGuards = new Set<TaskUpdateGuard>();
  constructor(deps: WorkServiceDeps) {
    this.deps = deps;
    this.store = new WorkStore(deps.db);
  }

  /** All records of a kind, most recently updated first (plain rows: the API shape). */
  list<K extends WorkKind>(kind: K): Promise<WorkRecord<K>[]> {
    return this.store.list(kind);
  }

  /** One page of the tasks matching every given filter, most recently updated first, and how many match in all. */
  listTasks(filter: TaskFilter, page: { limit: number | null; offset: number }): Promise<{ items: WorkRecord<"task">[]; total: number }> {
    return this.store.tasks(filter, page);
  }

  find<K extends WorkKind>(kind: K, id: string): Promise<WorkRecord<K> | undefined> {
    return this.store.find(kind, id);
  }

  async get<K extends WorkKind>(kind: K, id: string): Promise<WorkRecord<K>> {
    const record = await this.find(kind, id);
    if (!record) throw KINDS[kind].notFound(id);
    return record;
  }

  exists(kind: WorkKind, id: string): Promise<boolean> {
    return this.store.exists(kind, id);
  }

  /**
   * Creates a record from validated input. `options.id` is for importers that keep
   * existing ids (HTTP callers cannot set ids); an existing id is a 409.
   */
  async create<K extends WorkKind>(kind: K, input: Record<string, unknown>, options: { id?: string } = {}): Promise<WorkRecord<K>> {
    const spec = KINDS[kind];
    const data = this.toColumns(kind, { ...spec.defaults, ...input });
    const references = referencesIn(kind, data);
    await this.checkReferences(references);
    checkDates(data);
    const now = new Date().toISOString();
    const id = options.id ?? randomUUID();
    const record: Record<string, unknown> = { ...data, id, createdAt: now, updatedAt: now };
    if (spec.completes) record.completedAt = record.status === "done" ? now : null;
    // The invariants of a create (references exist, dates in order, `completedAt` follows
    // `status`) are checked above (the references again as the row is written, on engines
    // where a delete could commit in between); a taken id (importers keep theirs) is a 409.
    const outcome = await this.store.insert(kind, record, references);
    if (outcome === "taken") throw workErrors.WORK_ID_EXISTS({ kind, id });
    if (outcome !== "inserted") throw referenceNotFound(outcome);
    const created = record as WorkRecord<K>;
    this.deps.events.publish(`work.${kind}.created`, created, { public: true });
    return created;
  }

  /** Applies a validated partial update; `updatedAt` always moves, `completedAt` follows `status`. */
  async update<K extends WorkKind>(kind: K, id: string, patch: Record<string, unknown>): Promise<WorkRecord<K>> {
    const spec = KINDS[kind];
    const stored = await this.get(kind, id);
    const changes = this.toColumns(kind, patch);
    const references = referencesIn(kind, changes);
    await this.checkReferences(references);
    checkDates({ ...stored, ...changes });
    const now = new Date().toISOString();
    if (spec.completes && "status" in changes && changes.status !== (stored as Record<string, unknown>).status) {
      changes.completedAt = changes.status === "done" ? now : null;
    }
    if (kind === "task") for (const guard of this.taskGuards) await guard(stored as WorkRecord<"task">, changes);
    const outcome = await this.store.update(kind, id, { ...changes, updatedAt: now }, references);
    if (outcome === "gone") throw spec.notFound(id);
    if (outcome !== "updated") throw referenceNotFound(outcome);
    const record = await this.get(kind, id);
    this.deps.events.publish(`work.${kind}.updated`, record, { public: true });
    return record;
  }

  guardTaskUpdates(guard: TaskUpdateGuard): () => void {
    this.taskGuards.add(guard);
    return () => this.taskGuards.delete(guard);
  }

  /** Claims a task for an agent atomically (see WorkStore.claimTask); 409 naming who holds it otherwise. */
  async claimTask(id: string, agentId: string): Promise<WorkRecord<"task">> {
    const claimed = await this.store.claimTask(id, agentId, new Date().toISOString());
    if (!claimed) {
      const task = await this.get("task", id);
      throw workErrors.TASK_NOT_CLAIMABLE({ id, status: task.status, holder: task.assignedTo ?? "nobody" });
    }
    this.deps.events.publish("work.task.updated", claimed, { public: true });
    return claimed;
  }

  /** Deletes a record and clears every reference to it, atomically. */
  async delete(kind: WorkKind, id: string): Promise<void> {
    const touched = await this.store.deleteAndClearReferences(kind, id, new Date().toISOString());
    if (!touched) throw KINDS[kind].notFound(id);
    this.deps.events.publish(`work.${kind}.deleted`, { id }, { public: true });
    for (const t of touched) {
      const record = await this.find(t.kind, t.id);
      if (record) this.deps.events.publish(`work.${t.kind}.updated`, record, { public: true });
    }
  }

  /**
   * Request shapes to stored columns: list references are stored as JSON strings, and any
   * vault secret value in a free-text field is redacted (so it is never stored, listed or
   * streamed).
   */
  private toColumns(kind: WorkKind, input: Record<string, unknown>): Record<string, unknown> {
    const out = { ...input };
    for (const field of KINDS[kind].freeText) {
      if (typeof out[field] === "string") out[field] = this.deps.redaction.redact(out[field]);
    }
    for (const field of Object.keys(KINDS[kind].listRefs)) {
      if (Array.isArray(out[field])) out[field] = JSON.stringify([...new Set(out[field] as string[])]);
    }
    return out;
  }

  /** A 400 naming the first reference to a record that does not exist. */
  private async checkReferences(references: WorkReference[]): Promise<void> {
    for (const ref of references) if (!(await this.exists(ref.kind, ref.id))) throw referenceNotFound(ref);
  }
}

/** The references `data` makes (single ids, then each id of the list fields), in the order they are checked. */
function referencesIn(kind: WorkKind, data: Record<string, unknown>): WorkReference[] {
  const spec = KINDS[kind];
  const references: WorkReference[] = [];
  for (const [field, target] of Object.entries(spec.refs)) {
    const value = data[field];
    if (typeof value === "string") references.push({ field, path: field, kind: target, id: value });
  }
  for (const [field, target] of Object.entries(spec.listRefs)) {
    const value = data[field];
    if (typeof value !== "string") continue;
    for (const [index, id] of (JSON.parse(value) as string[]).entries()) references.push({ field, path: `${field}.${index}`, kind: target, id });
  }
  return references;
}

function referenceNotFound({ field, path, kind, id }: WorkReference) {
  return workErrors.WORK_REFERENCE_NOT_FOUND({ field, kind, id }, { details: [{ path, reason: `no ${kind} with id ${id}`, in: "body" }] });
}

function checkDates(data: Record<string, unknown>): void {
  const { startDate, endDate } = data;
  if (typeof startDate === "string" && typeof endDate === "string" && Date.parse(endDate) < Date.parse(startDate)) {
    throw workErrors.WORK_INVALID_DATES({}, { details: [{ path: "endDate", reason: "before startDate", in: "body" }] });
  }
}
