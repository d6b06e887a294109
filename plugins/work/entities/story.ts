import { defineEntity, p, type EntityRow } from "@muster/plugin";
import type { StoryStatus } from "./values.ts";

/**
 * Spec: Story (fields camelCased per DESIGN §5). The one declaration of `work_stories`
 * (migrations.ts creates it; a test checks they agree).
 */
export const Story = defineEntity({
  name: "Story",
  tableName: "work_stories",
  properties: {
    id: p.string().primary(),
    epicId: p.string().nullable(),
    title: p.string(),
    status: p.string().$type<StoryStatus>(),
    points: p.integer().nullable(),
    assignedTo: p.string().nullable(),
    createdAt: p.string(),
    updatedAt: p.string(),
    completedAt: p.string().nullable(),
  },
  // As migrations.ts creates them; `updatedAt DESC` is declared by its column, since SQLite
  // reports no sort order when the schema is compared.
  indexes: [
    { name: "work_stories_by_update", properties: ["updatedAt"] },
    { name: "work_stories_by_epic", properties: ["epicId"] },
  ],
});

/** A stored story as the query builder returns it: the API shape. */
export type StoryRow = EntityRow<typeof Story>;
