import { contribute, definePlugin } from "@muster/plugin";
import { boardRoutes } from "./http/routes.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { registerBoardServices } from "./services/register.ts";

/** The legacy file-based board: `/api/board/sync`, `/api/board/update`, `/api/board/import` (labelled legacy). */
export const legacyBoardPlugin = definePlugin({
  id: "legacy-board",
  version: "1.0.0",
  host: "^1.0.0",
  dependsOn: ["work"],
  optionalDependsOn: ["stream"],
  paths: ["/api/board"],
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "legacy-board.*", description: "A legacy board was imported, or one of its tasks was updated" }),
  ],
  register: registerBoardServices,
  routes: boardRoutes,
});

export default legacyBoardPlugin;
