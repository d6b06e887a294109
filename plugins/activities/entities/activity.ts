import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * One entry of the agent activity log (spec: Activity): the one declaration of
 * `activities_activities` (migrations.ts creates it; a test checks they agree).
 */
export const Activity = defineEntity({
  name: "Activity",
  tableName: "activities_activities",
  properties: {
    id: p.string().primary(),
    agentId: p.string(),
    action: p.string(),
    target: p.string().nullable(),
    details: p.string().nullable(),
    timestamp: p.string(),
  },
  // As migrations.ts creates them; `DESC` columns are declared by name, since SQLite reports
  // no sort order when the schema is compared.
  indexes: [
    { name: "activities_by_time", properties: ["timestamp", "id"] },
    { name: "activities_by_agent", properties: ["agentId", "timestamp"] },
  ],
});

/** A stored activity as the query builder returns it: the API shape (spec: Activity). */
export type ActivityRow = EntityRow<typeof Activity>;
