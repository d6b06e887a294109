import { defineEntity, p, type EntityRow } from "@muster/plugin";
import type { EpicStatus, Priority } from "./values.ts";

/** Spec: Epic. The one declaration of `work_epics` (migrations.ts creates it; a test checks they agree). */
export const Epic = defineEntity({
  name: "Epic",
  tableName: "work_epics",
  properties: {
    id: p.string().primary(),
    title: p.string(),
    status: p.string().$type<EpicStatus>(),
    priority: p.string().$type<Priority>(),
    createdBy: p.string().nullable(),
    approvedBy: p.string().nullable(),
    notes: p.string().nullable(),
    createdAt: p.string(),
    updatedAt: p.string(),
    completedAt: p.string().nullable(),
  },
  // As migrations.ts creates them; `updatedAt DESC` is declared by its column, since SQLite
  // reports no sort order when the schema is compared.
  indexes: [
    { name: "work_epics_by_update", properties: ["updatedAt"] },
  ],
});

/** A stored epic as the query builder returns it: the API shape. */
export type EpicRow = EntityRow<typeof Epic>;
