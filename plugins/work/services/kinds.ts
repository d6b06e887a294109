// What distinguishes the five work record kinds: table, entity, defaults, and which
// fields refer to which other kinds (the service checks and clears references with it).
import type { EntitySchema } from "@mikro-orm/core";
import type { MusterError } from "@muster/plugin";
import { Task } from "../entities/task.ts";
import { Sprint } from "../entities/sprint.ts";
import { Epic } from "../entities/epic.ts";
import { Story } from "../entities/story.ts";
import { Project } from "../entities/project.ts";
import { workErrors } from "../errors.ts";

export type WorkKind = "task" | "sprint" | "epic" | "story" | "project";

export interface KindSpec {
  kind: WorkKind;
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
    table: "work_tasks",
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
    table: "work_sprints",
    entity: Sprint,
    notFound: (id) => workErrors.SPRINT_NOT_FOUND({ id }),
    defaults: { status: "planning", startDate: null, endDate: null, storyIds: null },
    refs: {},
    listRefs: { storyIds: "story" },
    completes: false,
  },
  epic: {
    kind: "epic",
    table: "work_epics",
    entity: Epic,
    notFound: (id) => workErrors.EPIC_NOT_FOUND({ id }),
    defaults: { status: "active", priority: "medium", createdBy: null, approvedBy: null, notes: null, completedAt: null },
    refs: {},
    listRefs: {},
    completes: true,
  },
  story: {
    kind: "story",
    table: "work_stories",
    entity: Story,
    notFound: (id) => workErrors.STORY_NOT_FOUND({ id }),
    defaults: { epicId: null, status: "backlog", points: null, assignedTo: null, completedAt: null },
    refs: { epicId: "epic" },
    listRefs: {},
    completes: true,
  },
  project: {
    kind: "project",
    table: "work_projects",
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
