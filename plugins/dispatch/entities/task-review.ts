import { defineEntity, p, type EntityRow } from "@muster/plugin";

export type ReviewStatus = "pending" | "approved" | "rejected";

/**
 * The review approval of a task that entered `review` (DESIGN §14.6): at most one `pending`
 * per task (the review store's insert checks it in one transaction). `approvalId` is null
 * for the instant between the row and its approval being created, on the instance `owner`.
 */
export const TaskReview = defineEntity({
  name: "TaskReview",
  tableName: "dispatch_task_reviews",
  properties: {
    id: p.string().primary(),
    taskId: p.string(),
    approvalId: p.string().nullable(),
    status: p.string().$type<ReviewStatus>(),
    createdAt: p.string(),
    resolvedAt: p.string().nullable(),
    /** The instance that opened it (team mode), never shown: until linked, only that instance links it while it lives. */
    owner: p.string().nullable(),
  },
  indexes: [
    { name: "dispatch_task_reviews_by_task", properties: ["taskId", "status"] },
    { name: "dispatch_task_reviews_by_approval", properties: ["approvalId"] },
  ],
});

export type TaskReviewRow = EntityRow<typeof TaskReview>;
