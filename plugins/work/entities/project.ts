import { defineEntity, p, type EntityRow } from "@muster/plugin";
import type { ProjectStatus } from "./values.ts";

/** Spec: Project. The one declaration of `work_projects` (migrations.ts creates it; a test checks they agree). */
export const Project = defineEntity({
  name: "Project",
  tableName: "work_projects",
  properties: {
    id: p.string().primary(),
    name: p.string(),
    description: p.string().nullable(),
    status: p.string().$type<ProjectStatus>(),
    squad: p.string().nullable(),
    startDate: p.string().nullable(),
    endDate: p.string().nullable(),
    createdAt: p.string(),
    updatedAt: p.string(),
  },
  // As migrations.ts creates them; `updatedAt DESC` is declared by its column, since SQLite
  // reports no sort order when the schema is compared.
  indexes: [
    { name: "work_projects_by_update", properties: ["updatedAt"] },
  ],
});

/** A stored project as the query builder returns it: the API shape. */
export type ProjectRow = EntityRow<typeof Project>;
