import { defineEntity, p } from "@muster/plugin";

/** Spec: Project. */
export const Project = defineEntity({
  name: "Project",
  tableName: "work_projects",
  properties: {
    id: p.string().primary(),
    name: p.string(),
    description: p.string().nullable(),
    status: p.string(),
    squad: p.string().nullable(),
    startDate: p.string().nullable(),
    endDate: p.string().nullable(),
    createdAt: p.string(),
    updatedAt: p.string(),
  },
});
