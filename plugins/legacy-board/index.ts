import { definePlugin } from "@muster/plugin";
import { boardRoutes } from "./http/routes.ts";
import { registerBoardServices } from "./services/register.ts";

/** The legacy file-based board: `/api/board/sync`, `/api/board/update`, `/api/board/import` (labelled legacy). */
export const legacyBoardPlugin = definePlugin({
  id: "legacy-board",
  version: "1.0.0",
  host: "^1.0.0",
  dependsOn: ["work"],
  paths: ["/api/board"],
  register: registerBoardServices,
  routes: boardRoutes,
});

export default legacyBoardPlugin;
