import { definePlugin } from "@muster/plugin";
import { StandupNote } from "./entities/standup-note.ts";
import { migrations } from "./migrations.ts";
import { standupNotesService } from "./services/standup-notes.ts";
import { standupRoutes } from "./http/routes.ts";
import { mcpTools, notesMetric, standupPage, todayPanel } from "./contributions.ts";
import { blockersCheck } from "./doctor-check.ts";

/**
 * Daily stand-up notes per agent (`/api/standup`): each agent posts what it did yesterday,
 * what it does today and what blocks it; the crew's notes show in a console panel, through
 * MCP tools, as `muster standup`, in `/metrics`, and blocked agents in `muster doctor`.
 */
export default definePlugin({
  id: "standup",
  version: "0.1.0",
  host: "^1.0.0",
  // The owners of the points it contributes to; optional, so it runs without them.
  optionalDependsOn: ["dashboard", "metrics"],
  paths: ["/api/standup"],
  // Tables carry the plugin's prefix, standup_.
  entities: [StandupNote],
  migrations,
  register: (ctx) => ctx.provide(standupNotesService),
  routes: standupRoutes,
  contributions: [todayPanel, standupPage, ...mcpTools, notesMetric, blockersCheck],
  commands: [
    {
      name: "standup",
      usage: "standup [--day <date>] [--json]",
      summary: "the crew's stand-up notes of today (--day YYYY-MM-DD: another day), from the server",
      // Loaded only when the command runs: listing commands loads none of it. `.js`: tsc
      // rewrites the `.ts` of static imports only, and dist/ holds JavaScript.
      run: async (args, io) => (await import("./cli/standup-command.js")).runStandup(args, io),
    },
  ],
});
