// What the plugin adds to other surfaces: a console panel and page, MCP tools, a metric family.
// The dashboard and metrics are optional owners (optionalDependsOn in index.ts): without
// them these contributions are simply not made. Host points (MCP tools, doctor checks)
// need no declaration.
import { fileURLToPath } from "node:url";
import { contribute, contributeWith, hostPoints, type MetricFamily } from "@muster/plugin";
import { CONSOLE_PAGES, CONSOLE_PANELS, METRIC_SOURCES } from "./points.ts";
import { STANDUP_NOTES, utcDay } from "./tokens.ts";

/** The panel module ships as plain browser JavaScript in panel/ (next to dist/ in the package). */
export const todayPanel = contribute(CONSOLE_PANELS, {
  id: "today",
  title: "Stand-up",
  module: fileURLToPath(new URL("../panel/today.js", import.meta.url)),
  events: ["standup.note.posted"],
});

/** A whole page, `/console/standup`, in the console's Work group; it shares panel/ with the panel (one console directory per plugin). */
export const standupPage = contribute(CONSOLE_PAGES, {
  id: "standup",
  title: "Stand-up",
  group: "work",
  order: 90,
  module: fileURLToPath(new URL("../panel/standup-page.js", import.meta.url)),
  events: ["standup.note.posted"],
});

/** Each tool is one API operation: agents read the day's notes and post their own. */
export const mcpTools = [
  contribute(hostPoints.mcpTools, { name: "standup_list", title: "The crew's stand-up notes of a day", scope: "read", method: "GET", path: "/api/standup" }),
  contribute(hostPoints.mcpTools, { name: "standup_post", title: "Post your stand-up note of today", scope: "write", method: "POST", path: "/api/standup" }),
];

/** `muster_standup_notes_today{blocked}`: how many agents posted today, and how many are blocked. */
export const notesMetric = contributeWith(METRIC_SOURCES, {
  deps: { notes: STANDUP_NOTES },
  create: ({ notes }) => ({
    async collect(): Promise<MetricFamily[]> {
      const today = await notes.list(utcDay());
      const blocked = today.filter((note) => note.blockers !== "").length;
      return [
        {
          name: "muster_standup_notes_today",
          help: "Stand-up notes posted today (UTC), by whether the agent reports a blocker",
          type: "gauge",
          samples: [
            { labels: { blocked: "true" }, value: blocked },
            { labels: { blocked: "false" }, value: today.length - blocked },
          ],
        },
      ];
    },
  }),
});
