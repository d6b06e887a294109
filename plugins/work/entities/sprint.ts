import { defineEntity, p } from "@muster/plugin";

/** Spec: Sprint. `storyIds` is stored as the JSON-encoded string the spec returns. */
export const Sprint = defineEntity({
  name: "Sprint",
  tableName: "work_sprints",
  properties: {
    id: p.string().primary(),
    name: p.string(),
    status: p.string(),
    startDate: p.string().nullable(),
    endDate: p.string().nullable(),
    storyIds: p.string().nullable(),
    createdAt: p.string(),
    updatedAt: p.string(),
  },
});
