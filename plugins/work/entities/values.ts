// The values the work records' status and priority columns hold: declared once here, typed
// into the entities' rows and validated by the request schemas (http/schemas.ts).
export const TASK_STATUSES = ["backlog", "in_progress", "review", "done", "blocked"] as const;
export const PRIORITIES = ["low", "medium", "high", "critical"] as const;
export const SPRINT_STATUSES = ["planning", "active", "completed"] as const;
// The spec leaves these open; these are the values Muster accepts (DESIGN decision, see README).
export const EPIC_STATUSES = ["planning", "active", "done", "cancelled"] as const;
export const STORY_STATUSES = TASK_STATUSES;
export const PROJECT_STATUSES = ["active", "paused", "completed", "archived"] as const;

export type TaskStatus = (typeof TASK_STATUSES)[number];
export type Priority = (typeof PRIORITIES)[number];
export type SprintStatus = (typeof SPRINT_STATUSES)[number];
export type EpicStatus = (typeof EPIC_STATUSES)[number];
export type StoryStatus = (typeof STORY_STATUSES)[number];
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
