import { defineEntity, p } from "@muster/plugin";

/** Spec: Story (fields camelCased per DESIGN §5). */
export const Story = defineEntity({
  name: "Story",
  tableName: "work_stories",
  properties: {
    id: p.string().primary(),
    epicId: p.string().nullable(),
    title: p.string(),
    status: p.string(),
    points: p.integer().nullable(),
    assignedTo: p.string().nullable(),
    createdAt: p.string(),
    updatedAt: p.string(),
    completedAt: p.string().nullable(),
  },
});
