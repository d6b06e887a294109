import { defineEntity, p } from "@muster/plugin";

/** Spec: Task. Cross-record references are plain id columns, checked by the service. */
export const Task = defineEntity({
  name: "Task",
  tableName: "work_tasks",
  properties: {
    id: p.string().primary(),
    title: p.string(),
    description: p.string().nullable(),
    status: p.string(),
    priority: p.string(),
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
});
