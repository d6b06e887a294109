// What distinguishes the five work record kinds: entity (and so table), defaults, and which
// fields refer to which other kinds (the service checks and clears references with it).
import type { EntitySchema } from "@mikro-orm/core";
import type { MusterError } from "@muster/plugin";
import { Task, type TaskRow } from "../entities/task.ts";
import { Sprint, type SprintRow } from "../entities/sprint.ts";
import { Epic, type EpicRow } from "../entities/epic.ts";
import { Story, type StoryRow } from "../entities/story.ts";
import { Project, type ProjectRow } from "../entities/project.ts";
import { workErrors } from "../errors.ts";

export type WorkKind = "task" | "sprint" | "epic" | "story" | "project";

/** Each kind's stored row, derived from its entity: the API shape. */
export interface WorkRows {
  task: TaskRow;
  sprint: SprintRow;
  epic: EpicRow;
  story: StoryRow;
  project: ProjectRow;
}
export type WorkRecord<K extends WorkKind = WorkKind> = WorkRows[K];

export interface KindSpec {
  kind: WorkKind;
  /** The entity's table (`entity.tableName`). */
  table: string;
  entity: EntitySchema<any, any>;
  notFound(id: string): MusterError;
  /** Values for fields a create request may omit (nullable fields default to null). */
  defaults: Record<string, unknown>;
  /** Single-id reference fields and the kind they point at. */
  refs: Record<string, WorkKind>;
  /** Reference fields holding a JSON array of ids. */
  listRefs: Record<string, WorkKind>;
  /** Whether `status: "done"` sets `completedAt` (and leaving it clears it). */
  completes: boolean;
}

export const KINDS: Record<WorkKind, KindSpec> = {
  task: {
    kind: "task",
    table: Task.tableName,
    entity: Task,
    notFound: (id) => workErrors.TASK_NOT_FOUND({ id }),
    defaults: {
      description: null, status: "backlog", priority: "medium", assignedTo: null, projectId: null, storyId: null,
      sprintId: null, estimatedHours: null, actualHours: null, tags: null, notes: null, completedAt: null,
    },
    refs: { projectId: "project", storyId: "story", sprintId: "sprint" },
    listRefs: {},
    completes: true,
  },
  sprint: {
    kind: "sprint",
    table: Sprint.tableName,
    entity: Sprint,
    notFound: (id) => workErrors.SPRINT_NOT_FOUND({ id }),
    defaults: { status: "planning", startDate: null, endDate: null, storyIds: null },
    refs: {},
    listRefs: { storyIds: "story" },
    completes: false,
  },
  epic: {
    kind: "epic",
    table: Epic.tableName,
    entity: Epic,
    notFound: (id) => workErrors.EPIC_NOT_FOUND({ id }),
    defaults: { status: "active", priority: "medium", createdBy: null, approvedBy: null, notes: null, completedAt: null },
    refs: {},
    listRefs: {},
    completes: true,
  },
  story: {
    kind: "story",
    table: Story.tableName,
    entity: Story,
    notFound: (id) => workErrors.STORY_NOT_FOUND({ id }),
    defaults: { epicId: null, status: "backlog", points: null, assignedTo: null, completedAt: null },
    refs: { epicId: "epic" },
    listRefs: {},
    completes: true,
  },
  project: {
    kind: "project",
    table: Project.tableName,
    entity: Project,
    notFound: (id) => workErrors.PROJECT_NOT_FOUND({ id }),
    defaults: { description: null, status: "active", squad: null, startDate: null, endDate: null },
    refs: {},
    listRefs: {},
    completes: false,
  },
};

/** Every (kind, field) that refers to `target`, for clearing references on delete. */
export function referencesTo(target: WorkKind): { spec: KindSpec; field: string; list: boolean }[] {
  const found: { spec: KindSpec; field: string; list: boolean }[] = [];
  for (const spec of Object.values(KINDS)) {
    for (const [field, kind] of Object.entries(spec.refs)) if (kind === target) found.push({ spec, field, list: false });
    for (const [field, kind] of Object.entries(spec.listRefs)) if (kind === target) found.push({ spec, field, list: true });
  }
  return found;
}
