import { defineEntity, p, type EntityRow } from "@muster/plugin";
import type { SprintStatus } from "./values.ts";

/**
 * Spec: Sprint. The one declaration of `work_sprints` (migrations.ts creates it; a test
 * checks they agree). `storyIds` is stored as the JSON-encoded string the spec returns.
 */
export const Sprint = defineEntity({
  name: "Sprint",
  tableName: "work_sprints",
  properties: {
    id: p.string().primary(),
    name: p.string(),
    status: p.string().$type<SprintStatus>(),
    startDate: p.string().nullable(),
    endDate: p.string().nullable(),
    storyIds: p.string().nullable(),
    createdAt: p.string(),
    updatedAt: p.string(),
  },
  // As migrations.ts creates them; `updatedAt DESC` is declared by its column, since SQLite
  // reports no sort order when the schema is compared.
  indexes: [
    { name: "work_sprints_by_update", properties: ["updatedAt"] },
  ],
});

/** A stored sprint as the query builder returns it: the API shape. */
export type SprintRow = EntityRow<typeof Sprint>;
