import { defineErrors, PUBLISHED_BEFORE_PREFIX_RULE } from "@muster/plugin";

/** The dispatch plugin's error catalogue. */
export const dispatchErrors = defineErrors("dispatch", {
  DISPATCH_NOT_FOUND: { status: 404, message: "No dispatch with id {id}" },
  DISPATCH_TASK_UNASSIGNED: { status: 400, message: "Task {taskId} has no assignee; set assignedTo before dispatching it" },
  DISPATCH_ALREADY_RUNNING: { status: 409, message: "Task {taskId} is already being dispatched (dispatch {dispatchId})" },
  DISPATCH_TASK_NOT_DISPATCHABLE: { status: 409, message: "Task {taskId} is {status}; only a task that is not in review or done can be dispatched" },
  TASK_REVIEW_PENDING: { status: 409, message: "Task {taskId} is waiting for its review approval; approve it (the task then moves to done) or reject it" },
}, {
  // Codes without the prefix DISPATCH_ that clients already match: they keep their names (docs/errors.md).
  exempt: {
    TASK_REVIEW_PENDING: PUBLISHED_BEFORE_PREFIX_RULE,
  },
});
