import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PAGES } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { gitConfig } from "./config.ts";
import { gitRoutes } from "./http/routes.ts";
import { registerGitServices } from "./services/register.ts";
import { gitSyncActions } from "./services/sync-action.ts";

/**
 * `/api/git`: the status of one repository (`git.repoPath`, default the workspace), commits,
 * and push/pull as gated actions that run only after a human approves them (docs/git.md).
 */
export const gitPlugin = definePlugin({
  id: "git",
  version: "1.0.0",
  host: "^1.0.0",
  // Push and pull are external actions: they exist only through the approval gate.
  dependsOn: ["approvals"],
  optionalDependsOn: ["vault", "stream", "dashboard"],
  paths: ["/api/git"],
  config: gitConfig,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "git.commit.created", description: "A commit was made in the workspace repository" }),
    contribute(CONSOLE_PAGES, {
      id: "git",
      title: "Git",
      group: "outside",
      order: 20,
      module: fileURLToPath(new URL("./console/git-page.ts", import.meta.url)),
      events: ["git.*"],
    }),
  ],
  register: registerGitServices,
  gatedActions: gitSyncActions,
  routes: gitRoutes,
});

export default gitPlugin;
