import { defineEntity, p, type EntityRow } from "@muster/plugin";

export const DISPATCH_STATUSES = ["running", "completed", "failed", "interrupted"] as const;
export type DispatchStatus = (typeof DISPATCH_STATUSES)[number];

/**
 * One sending of a task to its assignee (DESIGN §14.6): the one declaration of
 * `dispatch_dispatches` (migrations.ts creates it). `previousStatus` is the task's status
 * before the dispatch moved it to `in_progress`, restored when the run fails. `taskSettledAt`
 * is when the task was moved for the dispatch's end (to `review`, or back): an ended dispatch
 * without it was cut off between the two steps by a kill and is settled at the next start.
 */
export const Dispatch = defineEntity({
  name: "Dispatch",
  tableName: "dispatch_dispatches",
  properties: {
    id: p.string().primary(),
    taskId: p.string(),
    agentId: p.string(),
    status: p.string().$type<DispatchStatus>(),
    previousStatus: p.string(),
    sessionKey: p.string(),
    output: p.text().nullable(),
    error: p.text().nullable(),
    inputTokens: p.integer().nullable(),
    outputTokens: p.integer().nullable(),
    createdAt: p.string(),
    finishedAt: p.string().nullable(),
    taskSettledAt: p.string().nullable(),
    /** The instance running it (`hostTokens.instances`); null for dispatches from before team mode. Not part of the API's record. */
    owner: p.string().nullable(),
  },
  indexes: [
    { name: "dispatch_dispatches_by_task", properties: ["taskId", "status"] },
    { name: "dispatch_dispatches_by_created", properties: ["createdAt"] },
    { name: "dispatch_dispatches_by_settled", properties: ["taskSettledAt"] },
  ],
});

export type DispatchRow = EntityRow<typeof Dispatch>;
