import { defineEntity, p } from "@muster/plugin";

/** One entry of the agent activity log (spec: Activity). */
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
});
