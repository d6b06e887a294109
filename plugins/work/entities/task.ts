import { defineEntity, p, type EntityRow } from "@muster/plugin";
import type { Priority, TaskStatus } from "./values.ts";

/**
 * Spec: Task. The one declaration of `work_tasks` (migrations.ts creates it; a test checks
 * they agree). Cross-record references are plain id columns, checked by the service.
 */
export const Task = defineEntity({
  name: "Task",
  tableName: "work_tasks",
  properties: {
    id: p.string().primary(),
    title: p.string(),
    description: p.string().nullable(),
    status: p.string().$type<TaskStatus>(),
    priority: p.string().$type<Priority>(),
    assignedTo: p.string().nullable(),
    projectId: p.string().nullable(),
    storyId: p.string().nullable(),
    sprintId: p.string().nullable(),
    estimatedHours: p.integer().nullable(),
    actualHours: p.integer().nullable(),
    tags: p.string().nullable(),
    notes: p.string().nullable(),
    createdAt: p.string(),
    updatedAt: p.string(),
    completedAt: p.string().nullable(),
  },
  // As migrations.ts creates them; `updatedAt DESC` is declared by its column, since SQLite
  // reports no sort order when the schema is compared.
  indexes: [
    { name: "work_tasks_by_update", properties: ["updatedAt"] },
    { name: "work_tasks_by_sprint", properties: ["sprintId"] },
    { name: "work_tasks_by_story", properties: ["storyId"] },
    { name: "work_tasks_by_project", properties: ["projectId"] },
  ],
});

/** A stored task as the query builder returns it: the API shape. */
export type TaskRow = EntityRow<typeof Task>;
