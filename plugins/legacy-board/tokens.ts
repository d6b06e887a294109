import { token } from "@muster/plugin";
import type { BoardImporter } from "./services/board-importer.ts";

/** Imports a project's YAML board into the work plugin. Depend on the `legacy-board` plugin to use it. */
export const BOARD_IMPORTER = token<BoardImporter>("legacy-board.importer");
