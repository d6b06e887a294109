import { defineEntity, p, type EntityRow } from "@muster/plugin";

export const GOAL_PRIORITIES = ["low", "medium", "high", "critical"] as const;
export const GOAL_STATUSES = ["active", "paused", "done", "archived"] as const;
export const RUN_STATUSES = ["pending", "running", "done", "failed"] as const;
export const RUN_FEEDBACK = ["good", "bad"] as const;

/** An autopilot goal (reference §2.12): a record only, nothing executes it. */
export const AutopilotGoal = defineEntity({
  name: "AutopilotGoal",
  tableName: "settings_autopilot_goals",
  properties: {
    id: p.string().primary(),
    title: p.string(),
    description: p.text().nullable(),
    priority: p.enum(GOAL_PRIORITIES),
    status: p.enum(GOAL_STATUSES),
    createdAt: p.string(),
    updatedAt: p.string(),
  },
});

/** An autopilot run (reference §2.12): a record only. */
export const AutopilotRun = defineEntity({
  name: "AutopilotRun",
  tableName: "settings_autopilot_runs",
  properties: {
    id: p.string().primary(),
    goalId: p.string().nullable(),
    agentId: p.string(),
    taskTitle: p.string().nullable(),
    taskDescription: p.text().nullable(),
    status: p.enum(RUN_STATUSES),
    result: p.text().nullable(),
    feedback: p.enum(RUN_FEEDBACK).nullable(),
    feedbackNote: p.text().nullable(),
    createdAt: p.string(),
    updatedAt: p.string(),
  },
  indexes: [{ name: "settings_autopilot_runs_created", properties: ["createdAt"] }],
});

export type AutopilotGoalRow = EntityRow<typeof AutopilotGoal>;
export type AutopilotRunRow = EntityRow<typeof AutopilotRun>;
