// Legacy board values to the work plugin's accepted values. Boards written by agents use
// looser words (`todo`, `doing`, `in-progress`, `p1`); known synonyms are mapped, anything
// else falls back to the work plugin's default with a warning.

const TASK_STATUS: Record<string, string> = {
  backlog: "backlog", todo: "backlog", to_do: "backlog", ready: "backlog", planned: "backlog",
  in_progress: "in_progress", doing: "in_progress", wip: "in_progress", started: "in_progress", active: "in_progress",
  review: "review", in_review: "review", qa: "review",
  done: "done", completed: "done", complete: "done", closed: "done",
  blocked: "blocked", on_hold: "blocked",
};
const EPIC_STATUS: Record<string, string> = {
  planning: "planning", planned: "planning", backlog: "planning", active: "active", in_progress: "active",
  done: "done", completed: "done", complete: "done", cancelled: "cancelled", canceled: "cancelled",
};
const SPRINT_STATUS: Record<string, string> = {
  planning: "planning", planned: "planning", active: "active", in_progress: "active", current: "active",
  completed: "completed", done: "completed", closed: "completed",
};
const PRIORITY: Record<string, string> = {
  low: "low", p3: "low", medium: "medium", normal: "medium", p2: "medium", high: "high", p1: "high",
  critical: "critical", urgent: "critical", p0: "critical",
};

const MAPS = { task: TASK_STATUS, story: TASK_STATUS, epic: EPIC_STATUS, sprint: SPRINT_STATUS, priority: PRIORITY };
const DEFAULTS = { task: "backlog", story: "backlog", epic: "active", sprint: "planning", priority: "medium" };

/** Maps a legacy value; unknown values become the default and add a warning. */
export function mapValue(map: keyof typeof MAPS, value: unknown, where: string, warnings: string[]): string {
  if (value === null || value === undefined || value === "") return DEFAULTS[map];
  const key = String(value).trim().toLowerCase().replace(/[\s-]+/g, "_");
  const mapped = MAPS[map][key];
  if (mapped) return mapped;
  warnings.push(`${where}: ${JSON.stringify(value)} is not a known value; imported as ${DEFAULTS[map]}`);
  return DEFAULTS[map];
}

/** The same rule as the host's `schemas.id`: 1-128 of letters, digits, `_ . : -`, never `.`/`..`. */
export const isRecordId = (v: unknown): v is string => typeof v === "string" && /^[A-Za-z0-9_.:-]{1,128}$/.test(v) && v !== "." && v !== "..";

/** A calendar date `YYYY-MM-DD` that exists. */
export const isDate = (v: unknown): v is string =>
  typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
