import { token } from "@muster/plugin";
import type { WorkKind } from "./services/kinds.ts";
import type { TaskFilter, WorkRecord } from "./services/work-service.ts";

export type { TaskFilter, WorkKind, WorkRecord };

/** Tasks, sprints, epics, stories and projects. */
export interface WorkTracker {
  /** All records of a kind, most recently updated first. */
  list(kind: WorkKind): WorkRecord[];
  /** Tasks matching the exact-match filters; `limit: null` returns every match. */
  listTasks(filter: TaskFilter, page: { limit: number | null; offset: number }): { items: WorkRecord[]; total: number };
  find(kind: WorkKind, id: string): WorkRecord | undefined;
  /** The record, or a 404 naming the kind. */
  get(kind: WorkKind, id: string): WorkRecord;
  exists(kind: WorkKind, id: string): boolean;
  /** Creates a record (references checked) and publishes `work.<kind>.created`. */
  create(kind: WorkKind, input: Record<string, unknown>, options?: { id?: string }): Promise<WorkRecord>;
  /** Updates a record and publishes `work.<kind>.updated`. */
  update(kind: WorkKind, id: string, patch: Record<string, unknown>): Promise<WorkRecord>;
  /** Deletes a record, clears references to it, and publishes `work.<kind>.deleted`. */
  delete(kind: WorkKind, id: string): void;
}

/** Tasks, sprints, epics, stories and projects (e.g. for importers). Depend on the `work` plugin. */
export const WORK = token<WorkTracker>("work.service");
