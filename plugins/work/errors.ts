import { defineErrors } from "@muster/plugin";

export const workErrors = defineErrors({
  TASK_NOT_FOUND: { status: 404, message: (p) => `No task with id ${p.id}` },
  SPRINT_NOT_FOUND: { status: 404, message: (p) => `No sprint with id ${p.id}` },
  EPIC_NOT_FOUND: { status: 404, message: (p) => `No epic with id ${p.id}` },
  STORY_NOT_FOUND: { status: 404, message: (p) => `No story with id ${p.id}` },
  PROJECT_NOT_FOUND: { status: 404, message: (p) => `No project with id ${p.id}` },
  WORK_REFERENCE_NOT_FOUND: { status: 400, message: (p) => `${p.field} refers to a ${p.kind} that does not exist (${p.id})` },
  WORK_INVALID_DATES: { status: 400, message: "endDate must not be before startDate" },
  WORK_ID_EXISTS: { status: 409, message: (p) => `A ${p.kind} with id ${p.id} already exists` },
});
