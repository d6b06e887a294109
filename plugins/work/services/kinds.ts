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
  /** Values for fields a create request may omit: every nullable column null, then these. */
  defaults: Record<string, unknown>;
  /** Single-id reference fields and the kind they point at. */
  refs: Record<string, WorkKind>;
  /** Reference fields holding a JSON array of ids. */
  listRefs: Record<string, WorkKind>;
  /** Whether `status: "done"` sets `completedAt` (and leaving it clears it). */
  completes: boolean;
  /** Fields of free text (written by agents and people): vault secret values in them are redacted before storing. */
  freeText: string[];
}

/** `given`, after null for every nullable column of the entity. */
function withNulls(entity: EntitySchema<any, any>, given: Record<string, unknown>): Record<string, unknown> {
  const nulls = Object.entries(entity.meta.properties as Record<string, { nullable?: boolean }>).filter(([, property]) => property.nullable).map(([name]) => [name, null]);
  return { ...Object.fromEntries(nulls), ...given };
}

export const KINDS: Record<WorkKind, KindSpec> = {
  task: {
    kind: "task",
    table: Task.tableName,
    entity: Task,
    notFound: (id) => workErrors.TASK_NOT_FOUND({ id }),
    defaults: withNulls(Task, { status: "backlog", priority: "medium" }),
    refs: { projectId: "project", storyId: "story", sprintId: "sprint" },
    listRefs: {},
    completes: true,
    freeText: ["title", "description", "notes", "tags"],
  },
  sprint: {
    kind: "sprint",
    table: Sprint.tableName,
    entity: Sprint,
    notFound: (id) => workErrors.SPRINT_NOT_FOUND({ id }),
    defaults: withNulls(Sprint, { status: "planning" }),
    refs: {},
    listRefs: { storyIds: "story" },
    completes: false,
    freeText: ["name"],
  },
  epic: {
    kind: "epic",
    table: Epic.tableName,
    entity: Epic,
    notFound: (id) => workErrors.EPIC_NOT_FOUND({ id }),
    defaults: withNulls(Epic, { status: "active", priority: "medium" }),
    refs: {},
    listRefs: {},
    completes: true,
    freeText: ["title", "notes"],
  },
  story: {
    kind: "story",
    table: Story.tableName,
    entity: Story,
    notFound: (id) => workErrors.STORY_NOT_FOUND({ id }),
    defaults: withNulls(Story, { status: "backlog" }),
    refs: { epicId: "epic" },
    listRefs: {},
    completes: true,
    freeText: ["title"],
  },
  project: {
    kind: "project",
    table: Project.tableName,
    entity: Project,
    notFound: (id) => workErrors.PROJECT_NOT_FOUND({ id }),
    defaults: withNulls(Project, { status: "active" }),
    refs: {},
    listRefs: {},
    completes: false,
    freeText: ["name", "description"],
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
