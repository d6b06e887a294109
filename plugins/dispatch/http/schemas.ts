import { schemas, z } from "@muster/plugin";
import { DISPATCH_STATUSES } from "../entities/dispatch.ts";

export const DISPATCH_PAGE = { defaultLimit: 50, maxLimit: 500 };

export const dispatchBody = z.strictObject({ taskId: schemas.id });
export const dispatchParams = z.strictObject({ id: schemas.id });
export const listDispatchQuery = z.strictObject({ limit: schemas.limit(DISPATCH_PAGE.defaultLimit, DISPATCH_PAGE.maxLimit) });
export const emptyQuery = z.strictObject({});

export const dispatchSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  agentId: z.string(),
  status: z.enum(DISPATCH_STATUSES),
  previousStatus: z.string(),
  sessionKey: z.string(),
  output: z.string().nullable(),
  error: z.string().nullable(),
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** When the task was moved for the dispatch's end (review, or back to its previous status). */
  taskSettledAt: z.string().nullable(),
});

export const dispatchResponse = z.object({ ok: z.literal(true), dispatch: dispatchSchema });
export const dispatchListResponse = z.object({ ok: z.literal(true), dispatches: z.array(dispatchSchema) });
