import { definePlugin, defineService } from "@muster/plugin";
import { WORK } from "../work/tokens.ts";
import { mountBoardRoutes } from "./http/routes.ts";
import { BoardImporter } from "./services/board-importer.ts";
import { BOARD_IMPORTER } from "./tokens.ts";

/** The legacy file-based board: `/api/board/sync`, `/api/board/update`, `/api/board/import` (labelled legacy). */
export const legacyBoardPlugin = definePlugin({
  id: "legacy-board",
  version: "1.0.0",
  host: "^1.0.0",
  dependsOn: ["work"],
  paths: ["/api/board"],
  register(ctx) {
    ctx.provide(
      defineService({
        token: BOARD_IMPORTER,
        deps: {},
        create: (_deps, c) => new BoardImporter({ workspace: c.workspace, work: () => c.resolve(WORK), events: c.events }),
      }),
    );
  },
  routes: mountBoardRoutes,
});

export default legacyBoardPlugin;
