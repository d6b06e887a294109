// Request and response schemas of the work plugin: the same zod objects validate
// requests and describe them in the OpenAPI document.
import { z, schemas } from "@muster/plugin";
import { EPIC_STATUSES, PRIORITIES, PROJECT_STATUSES, SPRINT_STATUSES, STORY_STATUSES, TASK_STATUSES } from "../entities/values.ts";

/** Free text: no NUL bytes (they would be silently cut by some clients and tools). */
const text = (max: number) => z.string().max(max).refine((v) => !v.includes("\0"), "must not contain NUL bytes");
const title = text(500).refine((v) => v.trim().length > 0, "must not be empty");
const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
const ref = optional(schemas.id);
const hours = optional(z.number().int().min(0).max(100_000));


const timestamp = z.string();
const nullableString = z.string().nullable();
const nullableInt = z.number().int().nullable();

const taskFields = {
  title,
  description: optional(text(20_000)),
  status: z.enum(TASK_STATUSES).optional(),
  priority: z.enum(PRIORITIES).optional(),
  assignedTo: ref,
  projectId: ref,
  storyId: ref,
  sprintId: ref,
  estimatedHours: hours,
  actualHours: hours,
  tags: optional(text(1000)),
  notes: optional(text(20_000)),
};
export const createTaskBody = z.strictObject(taskFields);
export const updateTaskBody = nonEmpty(z.strictObject({ ...taskFields, title: title.optional() }));
export const taskSchema = z.object({
  id: z.string(), title: z.string(), description: nullableString, status: z.enum(TASK_STATUSES), priority: z.enum(PRIORITIES),
  assignedTo: nullableString, projectId: nullableString, storyId: nullableString, sprintId: nullableString,
  estimatedHours: nullableInt, actualHours: nullableInt, tags: nullableString, notes: nullableString,
  createdAt: timestamp, updatedAt: timestamp, completedAt: timestamp.nullable(),
});

const sprintFields = {
  name: title,
  status: z.enum(SPRINT_STATUSES).optional(),
  startDate: optional(schemas.date),
  endDate: optional(schemas.date),
  storyIds: optional(z.array(schemas.id).max(1000)),
};
export const createSprintBody = z.strictObject(sprintFields);
export const updateSprintBody = withId(sprintFields);
export const sprintSchema = z.object({
  id: z.string(), name: z.string(), status: z.enum(SPRINT_STATUSES), startDate: nullableString, endDate: nullableString,
  storyIds: nullableString.describe("JSON array of story ids, encoded as a string"), createdAt: timestamp, updatedAt: timestamp,
});

const epicFields = {
  title,
  status: z.enum(EPIC_STATUSES).optional(),
  priority: z.enum(PRIORITIES).optional(),
  createdBy: ref,
  approvedBy: ref,
  notes: optional(text(20_000)),
};
export const createEpicBody = z.strictObject(epicFields);
export const updateEpicBody = withId(epicFields);
export const epicSchema = z.object({
  id: z.string(), title: z.string(), status: z.enum(EPIC_STATUSES), priority: z.enum(PRIORITIES), createdBy: nullableString,
  approvedBy: nullableString, notes: nullableString, createdAt: timestamp, updatedAt: timestamp, completedAt: timestamp.nullable(),
});

const storyFields = {
  title,
  epicId: ref,
  status: z.enum(STORY_STATUSES).optional(),
  points: optional(z.number().int().min(0).max(1000)),
  assignedTo: ref,
};
export const createStoryBody = z.strictObject(storyFields);
export const updateStoryBody = withId(storyFields);
export const storySchema = z.object({
  id: z.string(), epicId: nullableString, title: z.string(), status: z.enum(STORY_STATUSES), points: nullableInt,
  assignedTo: nullableString, createdAt: timestamp, updatedAt: timestamp, completedAt: timestamp.nullable(),
});

const projectFields = {
  name: title,
  description: optional(text(20_000)),
  status: z.enum(PROJECT_STATUSES).optional(),
  squad: optional(z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, "must be a squad id such as dev_squad")),
  startDate: optional(schemas.timestamp),
  endDate: optional(schemas.timestamp),
};
export const createProjectBody = z.strictObject(projectFields);
export const updateProjectBody = withId(projectFields);
export const projectSchema = z.object({
  id: z.string(), name: z.string(), description: nullableString, status: z.enum(PROJECT_STATUSES), squad: nullableString,
  startDate: nullableString, endDate: nullableString, createdAt: timestamp, updatedAt: timestamp,
});

/**
 * Page size of GET /api/tasks: at most 1000 per page when `limit` is given. Without `limit`
 * the list is every matching task, as the spec's "Array of Task" says; a silent default cap
 * would hide tasks from clients written against the spec.
 */
export const TASK_PAGE = { maxLimit: 1000 } as const;
/** GET /api/tasks: optional exact-match filters, then a page; unknown parameters are a 400. */
export const listTasksQuery = z.strictObject({
  status: z.enum(TASK_STATUSES).optional(),
  priority: z.enum(PRIORITIES).optional(),
  assignedTo: schemas.id.optional(),
  projectId: schemas.id.optional(),
  sprintId: schemas.id.optional(),
  limit: z.coerce.number().int().min(1).max(TASK_PAGE.maxLimit).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

export const idParams = z.strictObject({ id: schemas.id });
export const claimTaskBody = z.strictObject({ agentId: schemas.id.describe("The agent taking the task") });
export const idQuery = z.strictObject({ id: schemas.id });
export const emptyQuery = z.strictObject({});
export const okSchema = z.object({ ok: z.literal(true) });

/** PATCH bodies of the body-id resources: `{ id, ...fields to change }`, at least one field. */
function withId<F extends z.ZodRawShape>(fields: F) {
  return nonEmpty(z.strictObject({ ...fields, id: schemas.id }).partial().required({ id: true }), ["id"]);
}

function nonEmpty<T extends z.ZodType<Record<string, unknown>>>(schema: T, ignore: string[] = []) {
  return schema.refine((v) => Object.keys(v).some((k) => !ignore.includes(k)), { message: "nothing to change: send at least one field", path: [] });
}
