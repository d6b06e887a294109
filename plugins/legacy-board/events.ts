import type { BoardItem } from "./services/board-items.ts";

/** Events the legacy board publishes (all public: forwarded to SSE clients). */
export interface LegacyBoardEvents {
  "legacy-board.board.imported": { project: string; imported: Record<"projects" | "epics" | "stories" | "sprints" | "tasks", number>; skipped: number };
  "legacy-board.task.updated": { project: string; task: BoardItem };
}

declare module "@muster/plugin" {
  interface MusterEvents extends LegacyBoardEvents {}
}
