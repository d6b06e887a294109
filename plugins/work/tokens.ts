import { token } from "@muster/plugin";
import type { WorkKind } from "./services/kinds.ts";
import type { TaskFilter, WorkRecord } from "./services/work-service.ts";

export type { TaskFilter, WorkKind, WorkRecord };

/**
 * Consulted before a task update is written, with the task as stored and the validated
 * changes; throws or rejects (a MusterError) to refuse the update. May be asynchronous (a
 * guard that reads the database is, on every engine): the update awaits it right before the
 * write.
 */
export type TaskUpdateGuard = (task: WorkRecord<"task">, changes: Record<string, unknown>) => void | Promise<void>;

/** Tasks, sprints, epics, stories and projects. */
export interface WorkTracker {
  /** All records of a kind, most recently updated first. */
  list<K extends WorkKind>(kind: K): Promise<WorkRecord<K>[]>;
  /** Tasks matching the exact-match filters; `limit: null` returns every match. */
  listTasks(filter: TaskFilter, page: { limit: number | null; offset: number }): Promise<{ items: WorkRecord<"task">[]; total: number }>;
  find<K extends WorkKind>(kind: K, id: string): Promise<WorkRecord<K> | undefined>;
  /** The record, or a 404 naming the kind. */
  get<K extends WorkKind>(kind: K, id: string): Promise<WorkRecord<K>>;
  exists(kind: WorkKind, id: string): Promise<boolean>;
  /** Creates a record (references checked) and publishes `work.<kind>.created`. */
  create<K extends WorkKind>(kind: K, input: Record<string, unknown>, options?: { id?: string }): Promise<WorkRecord<K>>;
  /** Updates a record and publishes `work.<kind>.updated`. */
  update<K extends WorkKind>(kind: K, id: string, patch: Record<string, unknown>): Promise<WorkRecord<K>>;
  /**
   * Assigns a `backlog` task to `agentId` and moves it to `in_progress` in one atomic step
   * (of concurrent claims exactly one wins; the same agent claiming again is a no-op);
   * 404 for an unknown task, 409 `TASK_NOT_CLAIMABLE` otherwise.
   */
  claimTask(id: string, agentId: string): Promise<WorkRecord<"task">>;
  /**
   * Adds a guard every task update (PATCH and `update("task", …)`) must pass; returns the
   * function that removes it. Race window: the guard sees the task as read at the start of
   * the update; a write committed by a concurrent request between that read and this write
   * is not seen by it.
   */
  guardTaskUpdates(guard: TaskUpdateGuard): () => void;
  /** Deletes a record, clears references to it, and publishes `work.<kind>.deleted`. */
  delete(kind: WorkKind, id: string): Promise<void>;
}

/** Tasks, sprints, epics, stories and projects (e.g. for importers). Depend on the `work` plugin. */
export const WORK = token<WorkTracker>("work.service");
