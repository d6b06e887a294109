import { MusterError, type WorkspacePaths } from "@muster/plugin";
import { BOARD_KINDS, boardData, boardFile, parseBoardYaml, readBoardFile, requireBoard, type BoardKind } from "./board-files.ts";
import { normaliseItems, type BoardItem } from "./board-items.ts";

export interface BoardSnapshot {
  project: string;
  source: "yaml";
  epics: BoardItem[];
  stories: BoardItem[];
  sprints: BoardItem[];
  tasks: BoardItem[];
  counts: Record<BoardKind, number> & { tasksByStatus: Record<string, number> };
  /** Files that could not be read (with the reason) and items or fields that were skipped. */
  warnings: string[];
}

/**
 * Reads the project's four board files. A missing file is an empty list; a malformed,
 * binary or oversized file is a warning and an empty list, so one bad file never hides
 * the others. 404 when the project has no board directory.
 */
export async function readBoard(workspace: WorkspacePaths, project: string): Promise<BoardSnapshot> {
  await requireBoard(workspace, project);
  const warnings: string[] = [];
  const lists = {} as Record<BoardKind, BoardItem[]>;
  for (const kind of BOARD_KINDS) {
    const rel = boardFile(project, kind);
    try {
      const file = await readBoardFile(workspace, rel);
      if (!file) {
        lists[kind] = [];
        continue;
      }
      lists[kind] = normaliseItems(kind, boardData(rel, parseBoardYaml(rel, file.text)), warnings);
    } catch (error) {
      if (!(error instanceof MusterError) || error.status >= 500) throw error;
      warnings.push(`${kind}.yaml: ${error.message}`);
      lists[kind] = [];
    }
  }
  const tasksByStatus: Record<string, number> = {};
  for (const task of lists.tasks) tasksByStatus[String(task.status)] = (tasksByStatus[String(task.status)] ?? 0) + 1;
  return {
    project,
    source: "yaml",
    ...lists,
    counts: { epics: lists.epics.length, stories: lists.stories.length, sprints: lists.sprints.length, tasks: lists.tasks.length, tasksByStatus },
    warnings,
  };
}
