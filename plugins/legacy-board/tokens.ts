import { token } from "@muster/plugin";
import type { ImportReport } from "./services/board-importer.ts";

export type { ImportReport };

/** Copies a project's YAML board into the work plugin; existing ids are skipped, never overwritten. */
export interface BoardImport {
  import(project: string): Promise<ImportReport>;
}

/** Imports a project's YAML board into the work plugin. Depend on the `legacy-board` plugin to use it. */
export const BOARD_IMPORTER = token<BoardImport>("legacy-board.importer");
