import { defineErrors, PUBLISHED_BEFORE_PREFIX_RULE } from "@muster/plugin";

export const workErrors = defineErrors("work", {
  TASK_NOT_FOUND: { status: 404, message: "No task with id {id}" },
  SPRINT_NOT_FOUND: { status: 404, message: "No sprint with id {id}" },
  EPIC_NOT_FOUND: { status: 404, message: "No epic with id {id}" },
  STORY_NOT_FOUND: { status: 404, message: "No story with id {id}" },
  PROJECT_NOT_FOUND: { status: 404, message: "No project with id {id}" },
  WORK_REFERENCE_NOT_FOUND: { status: 400, message: "{field} refers to a {kind} that does not exist ({id})" },
  WORK_INVALID_DATES: { status: 400, message: "endDate must not be before startDate" },
  WORK_ID_EXISTS: { status: 409, message: "A {kind} with id {id} already exists" },
  TASK_NOT_CLAIMABLE: { status: 409, message: "Task {id} cannot be claimed: it is {status}, assigned to {holder}" },
}, {
  // Codes without the prefix WORK_ that clients already match: they keep their names (docs/errors.md).
  exempt: {
    TASK_NOT_FOUND: "named by DESIGN §5 (the error envelope)",
    SPRINT_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    EPIC_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    STORY_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    PROJECT_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    TASK_NOT_CLAIMABLE: PUBLISHED_BEFORE_PREFIX_RULE,
  },
});
