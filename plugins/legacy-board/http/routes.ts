import { defineRoutes, hostTokens } from "@muster/plugin";
import { readBoard } from "../services/board-reader.ts";
import { updateTaskStatus } from "../services/task-status-writer.ts";
import { BOARD_IMPORTER } from "../tokens.ts";
import { importQuery, importResponse, syncQuery, syncResponse, updateBody, updateResponse } from "./schemas.ts";

/** The legacy board's three routes: two read and write the YAML files, one imports them through the importer. */
export const boardRoutes = defineRoutes({
  deps: { importer: BOARD_IMPORTER, workspace: hostTokens.workspace, events: hostTokens.events },
  mount: (router, { importer, workspace, events }) => {
    router.get(
      "/api/board/sync",
      {
        summary: "Read a project's YAML board (projects/<project>/board/*.yaml)",
        description: "Always read from the YAML files (source: yaml). A malformed file is reported in warnings and read as empty; 404 when the project has no board directory.",
        query: syncQuery,
        response: syncResponse,
        legacy: true,
      },
      async ({ query }) => ({ ok: true, ...(await readBoard(workspace, query.project)) }),
    );

    router.patch(
      "/api/board/update",
      {
        summary: "Set a task's status in tasks.yaml (other items, fields and comments kept; atomic write)",
        body: updateBody,
        response: updateResponse,
        legacy: true,
      },
      async ({ body, agentId }) => {
        const task = await updateTaskStatus(workspace, {
          project: body.project,
          taskId: body.taskId,
          status: body.status,
          updatedBy: body.agentId ?? agentId ?? "user",
        });
        events.publish("legacy-board.task.updated", { project: body.project, task }, { public: true });
        return { ok: true, task };
      },
    );

    router.post(
      "/api/board/import",
      {
        summary: "Import a project's YAML board into tasks, sprints, epics, stories and projects",
        description: "Existing ids are skipped and listed; counts are the rows actually inserted. Tasks get projectId = project (the project is created if needed).",
        query: importQuery,
        response: importResponse,
        legacy: true,
      },
      async ({ query }) => ({ ok: true, ...(await importer.import(query.project)) }),
    );
  },
});
