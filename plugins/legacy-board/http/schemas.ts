import { z, schemas } from "@muster/plugin";

/** Project ids name a workspace directory (`projects/<project>/board`): no dots, slashes or spaces. */
export const projectId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "must be 1-64 letters, digits, _ or - (a directory name under projects/)");

/** The statuses of the legacy board (the markdown squad board's columns plus the work plugin's). */
export const LEGACY_TASK_STATUSES = ["backlog", "todo", "in_progress", "doing", "review", "blocked", "done"] as const;

export const syncQuery = z.strictObject({ project: projectId });
export const importQuery = z.strictObject({ project: projectId });

export const updateBody = z.strictObject({
  project: projectId,
  taskId: schemas.id,
  status: z.enum(LEGACY_TASK_STATUSES),
  agentId: z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, "must be an agent id").optional(),
});

const item = z.record(z.string(), z.unknown()).describe("The file's item in camelCase; unknown fields under `extra`");

export const syncResponse = z.object({
  ok: z.literal(true),
  project: z.string(),
  source: z.literal("yaml"),
  epics: z.array(item),
  stories: z.array(item),
  sprints: z.array(item),
  tasks: z.array(item),
  counts: z.object({ epics: z.number(), stories: z.number(), sprints: z.number(), tasks: z.number(), tasksByStatus: z.record(z.string(), z.number()) }),
  warnings: z.array(z.string()),
});

export const updateResponse = z.object({ ok: z.literal(true), task: item });

export const importResponse = z.object({
  ok: z.literal(true),
  project: z.string(),
  imported: z.object({ projects: z.number(), epics: z.number(), stories: z.number(), sprints: z.number(), tasks: z.number() }),
  skipped: z.array(z.object({ kind: z.string(), id: z.string(), reason: z.string() })),
  errors: z.array(z.object({ kind: z.string(), id: z.string().nullable(), reason: z.string() })),
  warnings: z.array(z.string()),
});
