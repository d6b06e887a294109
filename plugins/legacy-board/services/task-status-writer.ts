// PATCH /api/board/update: rewrites one task's status in tasks.yaml through the yaml
// Document API, so comments, key order and every other item and field stay as they were.
import { isMap, isScalar, isSeq, type YAMLMap } from "yaml";
import type { WorkspacePaths } from "@muster/plugin";
import { boardErrors } from "../errors.ts";
import { writeFileAtomic } from "./atomic-write.ts";
import { boardData, boardFile, parseBoardYaml, readBoardFile, requireBoard } from "./board-files.ts";
import { normaliseItems, type BoardItem } from "./board-items.ts";
import { stat } from "node:fs/promises";

export interface TaskStatusChange {
  project: string;
  taskId: string;
  status: string;
  /** Recorded as `updated_by`. */
  updatedBy: string;
}

/** The task's mapping node, unwrapping `- task: {...}` template items. */
function findTask(items: unknown[], taskId: string): YAMLMap | null {
  for (const item of items) {
    if (!isMap(item)) continue;
    let node: YAMLMap = item;
    if (item.items.length === 1 && isMap(item.get("task"))) node = item.get("task") as YAMLMap;
    const id = node.get("id", true);
    if (isScalar(id) && id.value !== null && String(id.value) === taskId) return node;
  }
  return null;
}

/** Per-file queue so two updates in this process never interleave their read-modify-write. */
const queues = new Map<string, Promise<unknown>>();
function serialised<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(fn, fn);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}

export async function updateTaskStatus(workspace: WorkspacePaths, change: TaskStatusChange): Promise<BoardItem> {
  await requireBoard(workspace, change.project);
  const rel = boardFile(change.project, "tasks");
  return serialised(workspace.resolve(rel), async () => {
    // An agent may write the file at the same moment: if it changed between our read and
    // our rename, start over from the new content (a few times) instead of losing its write.
    for (let attempt = 0; attempt < 3; attempt++) {
      const file = await readBoardFile(workspace, rel);
      if (!file) throw boardErrors.LEGACY_BOARD_TASK_NOT_FOUND({ project: change.project, taskId: change.taskId });
      const doc = parseBoardYaml(rel, file.text);
      boardData(rel, doc);
      if (!isSeq(doc.contents)) {
        throw boardErrors.LEGACY_BOARD_FILE_INVALID({ path: rel, reason: "it is not a top-level list of tasks" }, { details: { code: "NOT_A_LIST" } });
      }
      const node = findTask(doc.contents.items, change.taskId);
      if (!node) throw boardErrors.LEGACY_BOARD_TASK_NOT_FOUND({ project: change.project, taskId: change.taskId });
      node.set("status", change.status);
      node.set("updated_by", change.updatedBy);
      node.set("updated_at", new Date().toISOString());
      // Keep agents' flow style as written (`{a: 1}`, not `{ a: 1 }`) so an update changes only what it must.
      const text = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
      const now = await stat(file.realPath).catch(() => null);
      if (!now || now.mtimeMs !== file.mtimeMs || now.size !== file.size) continue;
      await writeFileAtomic(file.realPath, text, file.mode);
      const warnings: string[] = [];
      return normaliseItems("tasks", [node.toJSON()], warnings)[0]!;
    }
    throw boardErrors.LEGACY_BOARD_FILE_CHANGED({ path: rel });
  });
}
