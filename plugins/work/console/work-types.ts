// The shapes the work pages use, taken from the typed client's answers.
import type { Muster } from "@muster/console";

export type Task = Awaited<ReturnType<Muster["getTasksById"]>>;
export type TaskPatch = Parameters<Muster["patchTasksById"]>[0]["body"];
export type TaskQuery = NonNullable<NonNullable<Parameters<Muster["getTasks"]>[0]>["query"]>;

export const TASK_STATUSES = ["backlog", "in_progress", "review", "done", "blocked"] as const satisfies readonly Task["status"][];
export const PRIORITIES = ["low", "medium", "high", "critical"] as const satisfies readonly Task["priority"][];
export const STATUS_TONE = { backlog: "muted", in_progress: "info", review: "warn", done: "ok", blocked: "bad" } as const;
