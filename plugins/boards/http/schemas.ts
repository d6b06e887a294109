// Request and response schemas of the boards plugin: the same zod objects validate requests
// and describe them in the OpenAPI document.
import { z, schemas } from "@muster/plugin";

/** Free text: no NUL bytes. */
const text = (max: number) => z.string().max(max).refine((v) => !v.includes("\0"), "must not contain NUL bytes");
const name = text(200).refine((v) => v.trim().length > 0, "must not be empty");
const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
const nullableString = z.string().nullable();

/** Positions past a column's end mean the end; beyond this bound a position is a mistake, not a wish. */
export const MAX_POSITION = 1_000_000;
const position = z.number().int().min(0).max(MAX_POSITION);

export const columnSchema = z.strictObject({
  id: schemas.id.max(64),
  name,
  color: z.string().regex(/^#[0-9a-fA-F]{3,8}$|^[a-z]{1,20}$/, "must be a #hex colour or a colour name").optional(),
  wipLimit: z.number().int().min(1).max(10_000).optional(),
});
export const columnsSchema = z
  .array(columnSchema)
  .min(1)
  .max(50)
  .superRefine((columns, ctx) => {
    const seen = new Set<string>();
    columns.forEach((column, index) => {
      if (seen.has(column.id)) ctx.addIssue({ code: "custom", path: [index, "id"], message: `duplicate column id ${column.id}` });
      seen.add(column.id);
    });
  });

const columnIds = z.array(schemas.id.max(64)).max(50);
export const settingsSchema = z.strictObject({
  requireApprovalFor: columnIds.optional(),
  commentRequiredFor: columnIds.optional(),
  lead: schemas.id.optional(),
  doneColumn: schemas.id.max(64).optional(),
});

const boardType = z.enum(["kanban", "sprint", "custom"]);
const boardFields = {
  name,
  description: optional(text(20_000)),
  type: boardType.optional(),
  columns: columnsSchema.optional(),
  owner: schemas.id.optional(),
  squad: optional(z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, "must be a squad id such as dev_squad")),
  settings: settingsSchema.optional(),
};
export const createBoardBody = z.strictObject({ ...boardFields, template: schemas.id.optional() });
export const updateBoardBody = nonEmpty(z.strictObject({ ...boardFields, name: name.optional(), archived: z.boolean().optional() }));

export const boardSchema = z.object({
  id: z.string(), name: z.string(), description: nullableString, type: boardType, columns: z.array(columnSchema), owner: z.string(),
  squad: nullableString, settings: settingsSchema, createdAt: z.string(), updatedAt: z.string(), archivedAt: nullableString,
});

export const templateSchema = z.object({ id: z.string(), name: z.string(), description: z.string(), type: boardType, columns: z.array(columnSchema), settings: settingsSchema });

const checklist = z.array(z.strictObject({ text: text(1000).refine((v) => v.trim().length > 0, "must not be empty"), checked: z.boolean() })).max(200);
const attachments = z
  .array(z.strictObject({ name: text(300), url: z.url({ protocol: /^https?$/ }).max(2000) }))
  .max(50);
const labels = z.array(text(50).refine((v) => v.trim().length > 0, "must not be empty")).max(30);
const priority = z.enum(["low", "medium", "high", "urgent"]);
const ref = optional(schemas.id);

const cardFields = {
  title: text(500).refine((v) => v.trim().length > 0, "must not be empty"),
  description: optional(text(20_000)),
  assignee: ref,
  labels: labels.optional(),
  priority: priority.optional(),
  dueDate: optional(schemas.date),
  checklist: checklist.optional(),
  attachments: attachments.optional(),
  parentCardId: ref,
  storyId: ref,
  epicId: ref,
  sprintId: ref,
  progress: z.number().int().min(0).max(100).optional(),
};
const comment = text(10_000).refine((v) => v.trim().length > 0, "must not be empty");
export const createCardBody = z.strictObject({ ...cardFields, column: schemas.id.max(64).optional(), position: position.optional(), comment: comment.optional(), by: schemas.id.optional() });
export const updateCardBody = nonEmpty(
  z
    .strictObject({
      ...cardFields,
      title: cardFields.title.optional(),
      column: schemas.id.max(64).optional(),
      position: position.optional(),
      archived: z.boolean().optional(),
      comment: comment.optional(),
      by: schemas.id.optional(),
    })
    .refine((v) => v.archived !== true || (v.column === undefined && v.position === undefined), { message: "archive and move are separate requests", path: ["archived"] }),
  ["by"],
);

export const cardSchema = z.object({
  id: z.string(), boardId: z.string(), title: z.string(), description: nullableString, column: z.string(), position: z.number().int(),
  assignee: nullableString, labels: z.array(z.string()), priority, dueDate: nullableString,
  checklist: z.array(z.object({ text: z.string(), checked: z.boolean() })), attachments: z.array(z.object({ name: z.string(), url: z.string() })),
  parentCardId: nullableString, storyId: nullableString, epicId: nullableString, sprintId: nullableString, progress: z.number().int(),
  delegatedTo: nullableString, delegatedFrom: nullableString, createdBy: z.string(), createdAt: z.string(), updatedAt: z.string(),
  completedAt: nullableString, archivedAt: nullableString,
});
export const historySchema = z.object({
  id: z.string(), cardId: z.string(), action: z.string(), field: nullableString, from: nullableString, to: nullableString, by: z.string(), at: z.string(),
});
export const commentSchema = z.object({ id: z.string(), cardId: z.string(), author: z.string(), content: z.string(), createdAt: z.string() });

export const commentBody = z.strictObject({ content: comment, author: schemas.id.optional() });
export const claimBody = z.strictObject({ agentId: schemas.id });
export const delegateBody = z.strictObject({ boardId: schemas.id, assignee: schemas.id.optional(), message: text(5000).optional(), by: schemas.id.optional() });

const flag = z.enum(["true", "false"]).transform((v) => v === "true");
export const listBoardsQuery = z.strictObject({ archived: flag.default(false), squad: z.string().max(64).optional() });
export const listCardsQuery = z.strictObject({ column: schemas.id.max(64).optional(), assignee: schemas.id.optional(), archived: flag.default(false) });
export const deleteQuery = z.strictObject({ hard: flag.default(false) });
export const idParams = z.strictObject({ id: schemas.id });
export const emptyQuery = z.strictObject({});

function nonEmpty<T extends z.ZodType<Record<string, unknown>>>(schema: T, ignore: string[] = []) {
  return schema.refine((v) => Object.keys(v).some((k) => !ignore.includes(k)), { message: "nothing to change: send at least one field", path: [] });
}
