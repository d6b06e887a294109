import { defineEntity, p } from "@muster/plugin";

/** Spec: Epic. */
export const Epic = defineEntity({
  name: "Epic",
  tableName: "work_epics",
  properties: {
    id: p.string().primary(),
    title: p.string(),
    status: p.string(),
    priority: p.string(),
    createdBy: p.string().nullable(),
    approvedBy: p.string().nullable(),
    notes: p.string().nullable(),
    createdAt: p.string(),
    updatedAt: p.string(),
    completedAt: p.string().nullable(),
  },
});
