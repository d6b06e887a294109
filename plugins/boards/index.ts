import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PAGES } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { Board } from "./entities/board.ts";
import { Card } from "./entities/card.ts";
import { CardComment } from "./entities/card-comment.ts";
import { CardHistory } from "./entities/card-history.ts";
import { migrations } from "./migrations.ts";
import { boardRoutes } from "./http/routes.ts";
import { moveCardAction, registerBoardServices } from "./services/register.ts";
import { startBoards } from "./services/lifecycle.ts";

/**
 * The boards engine (release 1.0.1, docs/boards.md): boards, cards with dense positions and
 * WIP limits, comments, per-card history, policies (approval or comment to enter a column),
 * atomic claims and cross-squad delegation.
 */
export const boardsPlugin = definePlugin({
  id: "boards",
  version: "1.0.0",
  host: "^1.0.0",
  // Links to stories, epics and sprints are checked against work; gated moves become approvals.
  dependsOn: ["work", "approvals"],
  optionalDependsOn: ["stream", "dashboard"],
  paths: ["/api/boards", "/api/cards"],
  entities: [Board, Card, CardComment, CardHistory],
  migrations,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "boards.*", description: "A board or a card was created, updated, moved, commented on or deleted" }),
    // The console's boards: /console/boards, a board at /console/boards/<boardId>, a card at /console/boards/<boardId>/<cardId>.
    contribute(CONSOLE_PAGES, { id: "boards", title: "Boards", group: "work", order: 10, module: fileURLToPath(new URL("./console/boards-page.ts", import.meta.url)), events: ["boards.*"] }),
  ],
  register: registerBoardServices,
  routes: boardRoutes,
  onStart: startBoards,
  gatedActions: [moveCardAction],
});

export default boardsPlugin;
