import { defineErrors } from "@muster/plugin";

/** Error catalogue of the legacy (YAML file) board. */
export const boardErrors = defineErrors({
  LEGACY_BOARD_PROJECT_NOT_FOUND: { status: 404, message: (p) => `The workspace has no board for project ${p.project} (projects/${p.project}/board)` },
  LEGACY_BOARD_TASK_NOT_FOUND: { status: 404, message: (p) => `No task ${p.taskId} in projects/${p.project}/board/tasks.yaml` },
  LEGACY_BOARD_FILE_INVALID: { status: 422, message: (p) => `${p.path} cannot be used: ${p.reason}` },
  LEGACY_BOARD_FILE_CHANGED: { status: 409, message: (p) => `${p.path} kept changing while it was being updated; retry` },
});
