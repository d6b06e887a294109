import { defineErrors } from "@muster/plugin";

/** Error catalogue of the legacy (YAML file) board. */
export const boardErrors = defineErrors("legacy-board", {
  LEGACY_BOARD_PROJECT_NOT_FOUND: { status: 404, message: "The workspace has no board for project {project} (projects/{project}/board)" },
  LEGACY_BOARD_TASK_NOT_FOUND: { status: 404, message: "No task {taskId} in projects/{project}/board/tasks.yaml" },
  LEGACY_BOARD_FILE_INVALID: { status: 422, message: "{path} cannot be used: {reason}" },
  LEGACY_BOARD_FILE_CHANGED: { status: 409, message: "{path} kept changing while it was being updated; retry" },
});
